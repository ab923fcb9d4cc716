// `x-error-codes` of openapi.yaml's error responses: every 4xx or 5xx response with a JSON body lists
// the codes it is sent with, each a code of `ErrorCode` whose `x-http-status` is that response's
// status. The runner holds a server to the list (check `error_code`), so a wrong list would make it
// fail a right server.
import { arrayOrEmpty, jsonAt, objectOrEmpty, resolveObject, type JsonObject } from '../specModel/index.js';

const operationMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** code → its `x-http-status` (null when it has none) */
function errorCodeStatuses(openapi: JsonObject): Map<string, unknown> {
  const alternatives = arrayOrEmpty(jsonAt(openapi, 'components', 'schemas', 'ErrorCode', 'oneOf')).map(objectOrEmpty);
  return new Map(alternatives.filter((a) => typeof a.const === 'string').map((a) => [a.const as string, a['x-http-status'] ?? null]));
}

/** What is wrong with the `x-error-codes` of the document's responses, one line each (none: all is well). */
export function errorCodeListProblems(openapi: JsonObject): string[] {
  const statuses = errorCodeStatuses(openapi);
  const problems: string[] = [];
  for (const [path, rawItem] of Object.entries(objectOrEmpty(openapi.paths))) {
    const item = resolveObject(openapi, rawItem);
    for (const method of operationMethods.filter((m) => item[m] !== undefined)) {
      for (const [statusKey, raw] of Object.entries(objectOrEmpty(jsonAt(item[method], 'responses')))) {
        const ref = objectOrEmpty(raw).$ref;
        const where = `paths.${path}.${method}.responses.${statusKey}${typeof ref === 'string' ? ` (${ref})` : ''}`;
        const response = resolveObject(openapi, raw);
        const status = Number(statusKey);
        const codes = response['x-error-codes'];
        const json = Object.keys(objectOrEmpty(response.content)).some((type) => type.includes('json'));
        if (!(status >= 400)) {
          if (codes !== undefined) problems.push(`${where}: x-error-codes on a response that is not an error`);
          continue;
        }
        if (codes === undefined) {
          if (json) problems.push(`${where}: a JSON error response without x-error-codes (the codes it is sent with)`);
          continue;
        }
        if (!Array.isArray(codes) || codes.length === 0 || codes.some((code) => typeof code !== 'string')) {
          problems.push(`${where}: x-error-codes must be a non-empty list of codes`);
          continue;
        }
        for (const code of codes as string[]) {
          if (!statuses.has(code)) problems.push(`${where}: x-error-codes lists ${code}, which is not in ErrorCode`);
          else if (statuses.get(code) !== status)
            problems.push(`${where}: x-error-codes lists ${code}, whose x-http-status is ${String(statuses.get(code))}, not ${status}`);
        }
      }
    }
  }
  return problems;
}
