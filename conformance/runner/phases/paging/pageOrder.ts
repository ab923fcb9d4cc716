// Whether the items of a walk are in the order `x-paging` says: by `(field, tieBreaker)`, both in the
// direction of the sort value. A field the items carry is compared directly; `creation` (the items
// do not carry the moment they were created) is judged on the items the runner created itself, one
// after the other: of two such items, the one created first has the earlier (or the same) creation
// time, so whenever its tie-breaker is the smaller too, both parts of the key put it first in
// ascending order (and last in descending order).
import { creationSortKey, jsonAt, jsonText, type Json, type PagingFact } from '../../../specModel/index.js';

export interface SortOrder {
  field: string;
  direction: 'asc' | 'desc';
}

const dated = /^[0-9]{4}-[0-9]{2}-[0-9]{2}/;

/** Negative, zero or positive as `a` sorts before, with or after `b`; null when they cannot be compared. */
function compareValues(a: Json | undefined, b: Json | undefined): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  if (dated.test(a) && dated.test(b)) {
    const [timeA, timeB] = [Date.parse(a), Date.parse(b)];
    if (Number.isFinite(timeA) && Number.isFinite(timeB)) return timeA - timeB;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The items with each cursor value once (a repeated item is page_items' to report). */
function distinct(items: Json[], cursorField: string): Json[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = jsonText(jsonAt(item, cursorField));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function fieldOrderProblem(items: Json[], order: SortOrder, key: string, paging: PagingFact): string | null {
  const [cursorField, tie] = [paging.cursorField!, paging.tieBreaker!];
  const sign = order.direction === 'asc' ? 1 : -1;
  const describe = (item: Json) =>
    `${cursorField} ${jsonText(jsonAt(item, cursorField))} (${key} ${jsonText(jsonAt(item, key))}, ${tie} ${jsonText(jsonAt(item, tie))})`;
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!];
    const byKey = compareValues(jsonAt(a, key), jsonAt(b, key));
    const compared = byKey === 0 ? compareValues(jsonAt(a, tie), jsonAt(b, tie)) : byKey;
    if (compared !== null && compared * sign > 0)
      return `item ${i + 1} comes after item ${i}, but ${order.field}:${order.direction} orders by (${key}, ${tie}) ${order.direction === 'asc' ? 'ascending' : 'descending'}: ${describe(a)} is followed by ${describe(b)}`;
  }
  return null;
}

function creationOrderProblem(items: Json[], order: SortOrder, paging: PagingFact, created: number[]): string | null {
  const [cursorField, tie] = [paging.cursorField!, paging.tieBreaker!];
  const byId = new Map(items.map((item, index) => [jsonAt(item, cursorField), { item, index }] as const));
  for (let i = 0; i < created.length; i++) {
    for (let j = i + 1; j < created.length; j++) {
      const [first, later] = [byId.get(created[i]), byId.get(created[j])];
      // An item not seen is page_items' to report; tie-breakers against the creation order leave equal creation times possible.
      if (!first || !later || !((compareValues(jsonAt(first.item, tie), jsonAt(later.item, tie)) ?? 0) < 0)) continue;
      if (first.index < later.index !== (order.direction === 'asc'))
        return `${cursorField} ${created[i]} was created before ${cursorField} ${created[j]} (and its ${tie} is the smaller), so ${order.field}:${order.direction} puts it ${order.direction === 'asc' ? 'first' : 'last'}; the walk has it ${first.index < later.index ? 'first' : 'last'}`;
    }
  }
  return null;
}

/** Why the walk's items are not in `order`, or null when they are. `created`: the ids the runner created, in creation order. */
export function orderProblem(items: Json[], order: SortOrder, paging: PagingFact, created: number[]): string | null {
  const key = paging.sortKeys[order.field];
  if (key === undefined || paging.cursorField === null || paging.tieBreaker === null) return null;
  const unique = distinct(items, paging.cursorField);
  return key === creationSortKey ? creationOrderProblem(unique, order, paging, created) : fieldOrderProblem(unique, order, key, paging);
}
