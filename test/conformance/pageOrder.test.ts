// The order check of the phase "paging": by (field, tie-breaker) in the sort's direction, and for a
// `creation` key by the order the runner created the items in, where that order is decidable.
import { describe, expect, it } from 'vitest';
import { orderProblem } from '../../conformance/runner/phases/paging/pageOrder.js';
import type { PagingFact } from '../../conformance/specModel/index.js';

const paging: PagingFact = {
  cursorParameter: 'cursor',
  sizeParameter: 'size',
  cursorField: 'id',
  sortParameter: 'sort',
  order: null,
  sortKeys: { createdAt: 'creation', startDate: 'startDate' },
  tieBreaker: 'id',
};
const plan = (id: number, startDate: string) => ({ id, startDate });

describe('orderProblem', () => {
  it('holds items in (field, id) order in either direction', () => {
    const ascending = [plan(4, '2026-12-23'), plan(5, '2026-12-23'), plan(2, '2026-12-24'), plan(3, '2026-12-24')];
    expect(orderProblem(ascending, { field: 'startDate', direction: 'asc' }, paging, [])).toBeNull();
    expect(orderProblem(ascending.toReversed(), { field: 'startDate', direction: 'desc' }, paging, [])).toBeNull();
  });

  it('names the first two items out of order, by the field or by the tie-breaker', () => {
    const swappedDates = [plan(2, '2026-12-24'), plan(4, '2026-12-23')];
    expect(orderProblem(swappedDates, { field: 'startDate', direction: 'asc' }, paging, [])).toBe(
      'item 2 comes after item 1, but startDate:asc orders by (startDate, id) ascending: id 2 (startDate 2026-12-24, id 2) is followed by id 4 (startDate 2026-12-23, id 4)',
    );
    const swappedIds = [plan(5, '2026-12-23'), plan(4, '2026-12-23')];
    expect(orderProblem(swappedIds, { field: 'startDate', direction: 'asc' }, paging, [])).toContain('id 5 (startDate 2026-12-23, id 5) is followed by id 4');
  });

  it('leaves a repeated item to page_items', () => {
    expect(
      orderProblem([plan(2, '2026-12-24'), plan(2, '2026-12-24'), plan(3, '2026-12-24')], { field: 'startDate', direction: 'asc' }, paging, []),
    ).toBeNull();
  });

  it('judges a creation key by the order the runner created the items in', () => {
    const walked = [plan(3, 'x'), plan(4, 'x'), plan(5, 'x')];
    expect(orderProblem(walked, { field: 'createdAt', direction: 'asc' }, paging, [3, 4, 5])).toBeNull();
    expect(orderProblem(walked, { field: 'createdAt', direction: 'desc' }, paging, [3, 4, 5])).toBe(
      'id 3 was created before id 4 (and its id is the smaller), so createdAt:desc puts it last; the walk has it first',
    );
  });

  it('does not judge two created items whose tie-breaker runs against their creation order (equal creation times would explain any order)', () => {
    const walked = [plan(7, 'x'), plan(6, 'x')];
    expect(orderProblem(walked, { field: 'createdAt', direction: 'asc' }, paging, [7, 6])).toBeNull();
    expect(orderProblem(walked.toReversed(), { field: 'createdAt', direction: 'asc' }, paging, [7, 6])).toBeNull();
  });
});
