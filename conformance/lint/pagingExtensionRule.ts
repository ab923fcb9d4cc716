// `x-paging` of openapi.yaml's list operations: every operation whose 200 body is a cursor page
// (`data` with `content`, `nextCursor`, `hasNext` and `size`) has one, and it names query parameters
// the operation has and fields its items have; each sort value it implies (`field:asc`,
// `field:desc`) is one the sort parameter accepts, and that parameter's default is one of them.
// The runner's phase "paging" walks the list by it, so a wrong one would make it fail a right server.
import {
  arrayOrEmpty,
  creationSortKey,
  isJsonObject,
  jsonAt,
  jsonText,
  objectOrEmpty,
  parseSortValue,
  readPaging,
  resolveObject,
  type JsonObject,
  type PagingFact,
} from '../specModel/index.js';

const operationMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const knownKeys = new Set(['cursorParameter', 'sizeParameter', 'cursorField', 'sortParameter', 'order', 'sortKeys', 'tieBreaker']);
const pageFields = ['content', 'nextCursor', 'hasNext', 'size'];

/** The properties of a resolved object schema's property, resolved. */
const propertyOf = (openapi: JsonObject, schema: JsonObject, name: string): JsonObject => resolveObject(openapi, jsonAt(schema, 'properties', name));

/** Why a sort value would be refused by the sort parameter's schema (its pattern or enum), or null. */
function refusal(schema: JsonObject, value: string): string | null {
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return 'is not in its enum';
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return `does not match its pattern ${schema.pattern}`;
  return null;
}

function pagingProblems(openapi: JsonObject, raw: JsonObject, paging: PagingFact, query: Map<string, JsonObject>, data: JsonObject): string[] {
  const problems = Object.keys(raw)
    .filter((key) => !knownKeys.has(key))
    .map((key) => `unknown key ${key}`);
  for (const key of ['cursorParameter', 'sizeParameter'] as const) {
    const name = paging[key];
    if (name === null || !query.has(name)) problems.push(`${key} ${String(name)} is not a query parameter of the operation`);
  }
  const itemFields = new Set(Object.keys(objectOrEmpty(resolveObject(openapi, propertyOf(openapi, data, 'content').items).properties)));
  for (const key of ['cursorField', 'tieBreaker'] as const) {
    if (paging[key] === null || !itemFields.has(paging[key])) problems.push(`${key} ${String(paging[key])} is not a field of the items`);
  }
  const sortFields = Object.keys(paging.sortKeys);
  if (sortFields.length === 0) problems.push('sortKeys names no sort field');
  for (const [field, key] of Object.entries(paging.sortKeys)) {
    if (key !== creationSortKey && !itemFields.has(key)) problems.push(`sortKeys.${field} is ${key}: neither ${creationSortKey} nor a field of the items`);
  }
  if ((paging.sortParameter === null) === (paging.order === null)) problems.push('needs either sortParameter or order (not both)');
  if (paging.order !== null && !sortFields.includes(parseSortValue(paging.order)?.field ?? ''))
    problems.push(`order ${paging.order} is not field:asc or field:desc of a field of sortKeys`);
  if (paging.sortParameter !== null) {
    const parameter = query.get(paging.sortParameter);
    if (!parameter) return [...problems, `sortParameter ${paging.sortParameter} is not a query parameter of the operation`];
    const schema = resolveObject(openapi, parameter.schema);
    for (const value of sortFields.flatMap((field) => [`${field}:asc`, `${field}:desc`])) {
      const why = refusal(schema, value);
      if (why) problems.push(`the sort value ${value} ${why}`);
    }
    const fallback = schema.default;
    if (fallback !== undefined && !sortFields.includes(parseSortValue(jsonText(fallback))?.field ?? ''))
      problems.push(`the default sort ${jsonText(fallback)} is not field:asc or field:desc of a field of sortKeys`);
  }
  return problems;
}

/** What is wrong with the `x-paging` of the document's operations, one line each (none: all is well). */
export function pagingExtensionProblems(openapi: JsonObject): string[] {
  const problems: string[] = [];
  for (const [path, rawItem] of Object.entries(objectOrEmpty(openapi.paths))) {
    const item = resolveObject(openapi, rawItem);
    for (const method of operationMethods.filter((m) => item[m] !== undefined)) {
      const op = objectOrEmpty(item[method]);
      const where = `paths.${path}.${method}`;
      const body = resolveObject(openapi, jsonAt(resolveObject(openapi, jsonAt(op, 'responses', '200')), 'content', 'application/json', 'schema'));
      const data = propertyOf(openapi, body, 'data');
      const isPage = pageFields.every((field) => isJsonObject(jsonAt(data, 'properties', field)));
      const raw = op['x-paging'];
      if (raw === undefined) {
        if (isPage) problems.push(`${where}: a cursor-paged list without x-paging`);
        continue;
      }
      if (!isJsonObject(raw)) {
        problems.push(`${where}: x-paging must be an object`);
        continue;
      }
      if (!isPage) {
        problems.push(`${where}: x-paging on an operation whose 200 body is not a cursor page (${pageFields.join(', ')})`);
        continue;
      }
      const parameters = [...arrayOrEmpty(item.parameters), ...arrayOrEmpty(op.parameters)].map((p) => resolveObject(openapi, p));
      const query = new Map(parameters.filter((p) => p.in === 'query' && typeof p.name === 'string').map((p) => [p.name as string, p]));
      for (const problem of pagingProblems(openapi, raw, readPaging(raw)!, query, data)) problems.push(`${where}: x-paging: ${problem}`);
    }
  }
  return problems;
}
