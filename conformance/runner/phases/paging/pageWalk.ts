// Walks a cursor-paged list from its first page to its last with a small page size, checking each
// page: at most `size` items and its `size` field their number (page_size); every page answers 200,
// with hasNext `nextCursor` is the last item's cursor field, on the last page hasNext is false and
// nextCursor null, and a page reached through hasNext is not empty (page_cursor). The walk goes on
// with the cursor the spec defines (the last item's cursor field), so one wrong nextCursor does not
// spoil the pages after it.
import { arrayOrEmpty, jsonAt, jsonText, type Json, type OperationFact } from '../../../specModel/index.js';
import type { PhaseRecorder } from '../../checks.js';
import { curlOf, dataAt, type ProbeRequest } from '../../httpProbe.js';
import { sendChecked, type RunContext } from '../../runContext.js';

/** A walk stops here: a longer list is left unfinished (and not judged complete). */
export const maxPages = 100;

export interface PageWalk {
  op: OperationFact;
  /** the list's concrete path */
  path: string;
  token: string;
  /** query parameters of every page (the sort, when walked with one) */
  query: Record<string, string>;
  size: number;
  cursorParameter: string;
  sizeParameter: string;
  cursorField: string;
  /** what failures are reported on: the operation, and the sort value when there is one */
  target: string;
}

export interface WalkResult {
  /** the first page's request, to replay */
  first: ProbeRequest;
  /** every item of every page, in the order walked */
  items: Json[];
  /** whether the walk reached a page that says it is the last */
  complete: boolean;
}

export async function walkPages(ctx: RunContext, recorder: PhaseRecorder, walk: PageWalk): Promise<WalkResult> {
  const items: Json[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let first: ProbeRequest | undefined;
  for (let page = 1; page <= maxPages; page++) {
    const request: ProbeRequest = {
      operationId: walk.op.operationId,
      method: 'GET',
      path: walk.path,
      token: walk.token,
      query: { ...walk.query, [walk.sizeParameter]: String(walk.size), ...(cursor === undefined ? {} : { [walk.cursorParameter]: cursor }) },
    };
    first ??= request;
    const expect = (held: boolean, check: 'page_size' | 'page_cursor', message: string) =>
      recorder.check(
        held,
        check,
        walk.target,
        `page ${page}${cursor === undefined ? '' : ` (${walk.cursorParameter}=${cursor})`}: ${message}`,
        curlOf(ctx.target, request),
      );
    const response = await sendChecked(ctx, recorder, request);
    if (!expect(response.status === 200, 'page_cursor', `expected 200, got ${response.status}`)) return { first, items, complete: false };
    const content = arrayOrEmpty(dataAt(response, 'content'));
    const [hasNext, nextCursor, declared] = [dataAt(response, 'hasNext'), dataAt(response, 'nextCursor'), dataAt(response, 'size')];
    expect(content.length <= walk.size, 'page_size', `${content.length} items, but ${walk.sizeParameter}=${walk.size} asks for at most ${walk.size}`);
    expect(declared === content.length, 'page_size', `its size is ${jsonText(declared)}, but it has ${content.length} items`);
    if (cursor !== undefined)
      expect(
        content.length > 0,
        'page_cursor',
        'empty, yet the page before said hasNext: true (that page was the last: hasNext false and nextCursor null there)',
      );
    items.push(...content);
    if (hasNext !== true) {
      expect(
        nextCursor === null,
        'page_cursor',
        `hasNext is ${jsonText(hasNext)}, so this is the last page, whose nextCursor is null; got ${jsonText(nextCursor)}`,
      );
      return { first, items, complete: true };
    }
    const last = jsonAt(content.at(-1), walk.cursorField);
    expect(
      last !== undefined && nextCursor === last,
      'page_cursor',
      `hasNext is true, so nextCursor is the ${walk.cursorField} of the page's last item, ${jsonText(last)}; got ${jsonText(nextCursor)}`,
    );
    if (last === undefined) return { first, items, complete: false };
    cursor = jsonText(last);
    if (cursors.has(cursor)) {
      expect(false, 'page_cursor', `the walk came back to ${walk.cursorParameter}=${cursor}, a page it had read`);
      return { first, items, complete: false };
    }
    cursors.add(cursor);
  }
  return { first: first!, items, complete: false };
}
