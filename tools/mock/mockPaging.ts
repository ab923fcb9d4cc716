// The mock's lists end. A cursor-paged operation (`x-paging` of openapi.yaml) answers its first page
// (no cursor) with the documented example, whatever the example says of more pages; a page asked
// for with a cursor is the last one: no items, `nextCursor: null`, `hasNext: false`. A client that
// follows `nextCursor` stops after two pages, and no item comes twice. The mock has no items of its
// own, so the cursor's value does not matter (the request checks still apply to it).
import type { components } from '../../generated/openapi.js';
import type { PagingFact } from '../../conformance/specModel/index.js';

type PageResponse = components['schemas']['PageResponse'];

const lastPage: PageResponse = { content: [], nextCursor: null, hasNext: false, size: 0 };

/** The page to answer: `example` (the documented envelope) itself, or the empty last page in its envelope. */
export function pageOf<T>(paging: PagingFact | null, query: Record<string, unknown>, example: T): T {
  const cursor = paging?.cursorParameter;
  if (!cursor || query[cursor] === undefined) return example;
  return { ...example, data: lastPage };
}
