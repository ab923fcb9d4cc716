// `x-paging` of a cursor-paged list operation (openapi.yaml, the Conventions of the Trips tag): which
// query parameters take the cursor, the page size and the order, which item field the cursor is,
// and what orders the items. Read as written; `trip-spec-lint` checks that it names parameters and
// fields the operation has.
import { isJsonObject, stringOrUndefined, type Json } from './json.js';

/** The value of `sortKeys` for a sort field the items do not carry: the moment each was created. */
export const creationSortKey = 'creation';

export interface PagingFact {
  /** the query parameter that takes the previous page's `nextCursor` */
  cursorParameter: string | null;
  /** the query parameter of the page size */
  sizeParameter: string | null;
  /** the item field `nextCursor` is (of the page's last item) */
  cursorField: string | null;
  /** the query parameter whose value (`field:direction`) orders the items; null when the order is fixed */
  sortParameter: string | null;
  /** the fixed order (`field:direction`) of an operation without a sort parameter */
  order: string | null;
  /** each sort field: the item field holding its value, or `creation` */
  sortKeys: Record<string, string>;
  /** the item field that orders items whose sort field is equal, in the same direction */
  tieBreaker: string | null;
}

/** An operation's `x-paging`, or null when it has none. */
export function readPaging(extension: Json | undefined): PagingFact | null {
  if (!isJsonObject(extension)) return null;
  const text = (key: string) => stringOrUndefined(extension[key]) ?? null;
  const keys = isJsonObject(extension.sortKeys) ? extension.sortKeys : {};
  return {
    cursorParameter: text('cursorParameter'),
    sizeParameter: text('sizeParameter'),
    cursorField: text('cursorField'),
    sortParameter: text('sortParameter'),
    order: text('order'),
    sortKeys: Object.fromEntries(Object.entries(keys).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    tieBreaker: text('tieBreaker'),
  };
}

/** `field:direction` split, or null when it is not of that form. */
export function parseSortValue(value: string): { field: string; direction: 'asc' | 'desc' } | null {
  const match = /^([^:]+):(asc|desc)$/.exec(value);
  return match ? { field: match[1]!, direction: match[2] as 'asc' | 'desc' } : null;
}
