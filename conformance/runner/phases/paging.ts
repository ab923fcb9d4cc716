// Phase "paging": every cursor-paged list (`x-paging` of openapi.yaml) that the runner's members may
// read is walked from its first page to its last with a small page size, once in each order it
// offers (the default, and every `field:asc` / `field:desc` of its sort parameter), over items the
// runner made for it (paging/pagingFixtures.ts). Each page is checked as it comes
// (paging/pageWalk.ts); each walk must show every item once, every item the runner knows of
// included (page_items), in the order the sort value says (page_order, paging/pageOrder.ts).
import {
  arrayOrEmpty,
  jsonAt,
  jsonText,
  numberOrUndefined,
  parseSortValue,
  resolveObject,
  type OperationFact,
  type PagingFact,
} from '../../specModel/index.js';
import { PhaseRecorder } from '../checks.js';
import { curlOf, dataAt } from '../httpProbe.js';
import { sendChecked, type RunContext } from '../runContext.js';
import { orderProblem, type SortOrder } from './paging/pageOrder.js';
import { walkPages, type PageWalk, type WalkResult } from './paging/pageWalk.js';
import { prepareItems, type PagingFixture } from './paging/pagingFixtures.js';

/** The page size of a walk: 2 (a few items make several pages), within the size parameter's bounds. */
const walkSize = 2;

interface Ordering {
  target: string;
  query: Record<string, string>;
  /** null when the order cannot be known (a default that is not `field:direction`) */
  order: SortOrder | null;
}

/** The orders a list is walked in: its fixed order, or the default and each sort value its parameter accepts. */
function orderings(ctx: RunContext, op: OperationFact, paging: PagingFact): Ordering[] {
  if (paging.sortParameter === null) return [{ target: op.operationId, query: {}, order: parseSortValue(paging.order ?? '') }];
  const parameter = op.parameters.find((p) => p.in === 'query' && p.name === paging.sortParameter);
  if (!parameter) return [];
  const accepts = ctx.spec.schemaValidator('openapi', parameter.schema);
  const fallback = resolveObject(ctx.spec.openapi, parameter.schema).default;
  const explicit = Object.keys(paging.sortKeys)
    .flatMap((field) => [`${field}:asc`, `${field}:desc`])
    .filter((value) => accepts(value).valid)
    .map((value) => ({
      target: `${op.operationId} ${paging.sortParameter}=${value}`,
      query: { [paging.sortParameter!]: value },
      order: parseSortValue(value),
    }));
  return [{ target: op.operationId, query: {}, order: fallback === undefined ? null : parseSortValue(jsonText(fallback)) }, ...explicit];
}

/** The ids of the whole list, read as one page of the largest size; empty when it does not fit one page. */
async function wholeList(ctx: RunContext, recorder: PhaseRecorder, walk: PageWalk, largest: number): Promise<Set<string>> {
  const request = { operationId: walk.op.operationId, method: 'GET', path: walk.path, token: walk.token, query: { [walk.sizeParameter]: String(largest) } };
  const response = await sendChecked(ctx, recorder, request);
  if (response.status !== 200 || dataAt(response, 'hasNext') !== false) return new Set();
  return new Set(arrayOrEmpty(dataAt(response, 'content')).map((item) => jsonText(jsonAt(item, walk.cursorField))));
}

function checkItems(ctx: RunContext, recorder: PhaseRecorder, walk: PageWalk, result: WalkResult, known: Set<string>): void {
  const replay = `${curlOf(ctx.target, result.first)} # then each page's nextCursor as ${walk.cursorParameter}`;
  const ids = result.items.map((item) => jsonText(jsonAt(item, walk.cursorField)));
  const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
  recorder.check(twice.length === 0, 'page_items', walk.target, `${walk.cursorField} ${[...new Set(twice)].join(', ')} came on more than one page`, replay);
  // An unfinished walk (a page refused, or past the page limit) cannot tell what it would have seen.
  if (!result.complete) return;
  const missing = [...known].filter((id) => !ids.includes(id));
  recorder.check(
    missing.length === 0,
    'page_items',
    walk.target,
    `${walk.cursorField} ${missing.join(', ')} of the list came on no page (${ids.length} items walked)`,
    replay,
  );
}

async function walkList(ctx: RunContext, recorder: PhaseRecorder, op: OperationFact, paging: PagingFact, fixture: PagingFixture): Promise<void> {
  const sizeSchema = resolveObject(ctx.spec.openapi, op.parameters.find((p) => p.in === 'query' && p.name === paging.sizeParameter)?.schema);
  const [minimum, maximum] = [numberOrUndefined(sizeSchema.minimum) ?? 1, numberOrUndefined(sizeSchema.maximum) ?? 100];
  const base = {
    op,
    path: fixture.path,
    token: fixture.token,
    size: Math.min(Math.max(walkSize, minimum), maximum),
    cursorParameter: paging.cursorParameter!,
    sizeParameter: paging.sizeParameter!,
    cursorField: paging.cursorField!,
  };
  const known = await wholeList(ctx, recorder, { ...base, query: {}, target: op.operationId }, maximum);
  for (const id of fixture.created) known.add(String(id));
  for (const { target, query, order } of orderings(ctx, op, paging)) {
    const walk: PageWalk = { ...base, query, target };
    const result = await walkPages(ctx, recorder, walk);
    checkItems(ctx, recorder, walk, result, known);
    if (order === null) continue;
    const problem = orderProblem(result.items, order, paging, fixture.created);
    recorder.check(
      problem === null,
      'page_order',
      target,
      problem ?? '',
      `${curlOf(ctx.target, result.first)} # then each page's nextCursor as ${walk.cursorParameter}`,
    );
  }
}

export async function runPagingPhase(ctx: RunContext): Promise<PhaseRecorder> {
  const recorder = new PhaseRecorder('paging');
  for (const op of ctx.spec.operations) {
    const paging = op.paging;
    // A list that needs a role the runner's members lack answers 403 before paging anything.
    if (!paging || op.method !== 'get' || op.requiredRole) continue;
    // An x-paging that names no cursor or size parameter of the operation is the spec lint's to report.
    const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    if (!queryNames.includes(paging.cursorParameter ?? '') || !queryNames.includes(paging.sizeParameter ?? '') || paging.cursorField === null) continue;
    const fixture = await prepareItems(ctx, recorder, op);
    if (fixture) await walkList(ctx, recorder, op, paging, fixture);
  }
  return recorder;
}
