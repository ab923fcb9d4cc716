// Every item of a cursor-paged list, page after page: the previous page's `nextCursor` goes into the
// operation's `x-paging` cursor parameter until the page says it is the last (`hasNext` false or
// `nextCursor` null).
import { operationTable } from '../generated/http/operationTable.js';
import type { PagedOperationId } from '../generated/http/operations.js';
import { OperationFailedError } from './operationFailedError.js';
import type { AnyInput } from './result.js';
import type { AnyResult } from './sendOperation.js';

interface Page {
  content: readonly unknown[];
  hasNext: boolean;
  nextCursor: string | number | null;
}

function pageOf(operationId: string, data: unknown): Page {
  const page = data as Partial<Page> | null;
  const cursor = page?.nextCursor;
  if (!Array.isArray(page?.content) || typeof page.hasNext !== 'boolean' || !(cursor === null || typeof cursor === 'number' || typeof cursor === 'string')) {
    throw new Error(`${operationId}: the answer is not a page (content, hasNext, nextCursor)`);
  }
  return page as Page;
}

export async function* pageItems(
  send: (operationId: PagedOperationId, input: AnyInput) => Promise<AnyResult>,
  operationId: PagedOperationId,
  input: AnyInput,
): AsyncGenerator<unknown, void, undefined> {
  const { paging } = operationTable[operationId];
  if (!paging) throw new Error(`${operationId} is not a cursor-paged list (no x-paging)`);
  let cursor: string | number | undefined;
  for (;;) {
    const query = cursor === undefined ? input.query : { ...input.query, [paging.cursorParameter]: cursor };
    const result = await send(operationId, { ...input, query });
    if (!result.ok) throw new OperationFailedError(operationId, result);
    const page = pageOf(operationId, result.data);
    yield* page.content;
    if (!page.hasNext || page.nextCursor === null) return;
    if (page.nextCursor === cursor) throw new Error(`${operationId}: the server gave the cursor ${cursor} twice`);
    cursor = page.nextCursor;
  }
}
