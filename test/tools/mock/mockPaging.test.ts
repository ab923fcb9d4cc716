// The mock's lists end: a client that follows `nextCursor` through any cursor-paged operation
// (`x-paging` of openapi.yaml) reaches a last page (hasNext false, nextCursor null) after a few pages,
// every page valid against the operation's response validator and no item seen twice.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonAt, numberOrUndefined, readOperations, readYaml, type Json } from '../../../conformance/specModel/index.js';
import type { OperationId } from '../../../generated/operations.js';
import { operationValidators } from '../../../generated/validators.js';
import { createMock } from '../../../tools/mock/createMock.js';

const spec = readYaml(path.resolve(import.meta.dirname, '../../../specs/openapi.yaml'));
const paged = readOperations(spec).filter((op) => op.paging !== null);
const mock = createMock({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
afterAll(() => mock.close());

/** A client's paging loop, given up after `limit` pages (a mock whose pages never end). */
async function walk(url: string, cursorParameter: string, limit: number): Promise<Json[]> {
  const pages: Json[] = [];
  let cursor: number | null = null;
  do {
    const query = cursor === null ? '' : `?${cursorParameter}=${cursor}`;
    const res = await mock.hono.request(`${url}${query}`, { headers: { authorization: 'Bearer any.token' } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as Json;
    pages.push(page);
    cursor = jsonAt(page, 'data', 'hasNext') === true ? (numberOrUndefined(jsonAt(page, 'data', 'nextCursor')) ?? null) : null;
  } while (cursor !== null && pages.length < limit);
  return pages;
}

describe('mock server: cursor pages end', () => {
  it('has cursor-paged operations to walk, one of them documenting a first page with more to come', () => {
    expect(paged.map((op) => op.operationId)).toContain('listTripPlans');
  });

  it.each(paged.map((op) => ({ operationId: op.operationId, op })))(
    '$operationId: following nextCursor ends with hasNext false and nextCursor null, every page valid and no item twice',
    async ({ operationId, op }) => {
      const url = op.path.replace(/\{[^}]+\}/g, '42');
      const pages = await walk(url, op.paging!.cursorParameter!, 5);
      const last = pages.at(-1);
      expect(pages.length).toBeLessThanOrEqual(2);
      expect(jsonAt(last, 'data', 'hasNext')).toBe(false);
      expect(jsonAt(last, 'data', 'nextCursor')).toBeNull();
      const validate = operationValidators[operationId as OperationId].responses[200]!;
      for (const page of pages) expect(validate(page), JSON.stringify(validate.errors)).toBe(true);
      const ids = pages.flatMap((page) => (jsonAt(page, 'data', 'content') as Json[]).map((item) => JSON.stringify(jsonAt(item, op.paging!.cursorField!))));
      expect(new Set(ids).size).toBe(ids.length);
    },
  );

  it('answers the documented example as the first page, and the empty last page to any cursor', async () => {
    const first = await walk('/api/v1/trips', 'cursor', 1);
    expect(jsonAt(first[0], 'data', 'hasNext')).toBe(true);
    const res = await mock.hono.request('/api/v1/trips?cursor=9001', { headers: { authorization: 'Bearer any.token' } });
    expect(jsonAt((await res.json()) as Json, 'data')).toEqual({ content: [], nextCursor: null, hasNext: false, size: 0 });
  });

  it('still answers a page asked for by its example, cursor or not (Prefer)', async () => {
    const res = await mock.hono.request('/api/v1/trips?cursor=42', { headers: { authorization: 'Bearer any.token', prefer: 'example=firstPage' } });
    expect(jsonAt((await res.json()) as Json, 'data', 'hasNext')).toBe(true);
  });
});
