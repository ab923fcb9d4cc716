// Path and query parameters as the spec reads them, before schema validation (openapi.yaml,
// info.description): query parameters are `style: form, explode: true` with one value each, so a
// repeated one is refused; undocumented ones are ignored. Integer parameters must be written in
// canonical decimal, because the validators coerce strings and would otherwise take `03`, `+3`,
// `3.0`, `0x3`, ` 3` and `3e0` as 3, and `9007199254740993` as a different number.
import type { Context } from 'hono';
import type { RouteDefinition } from '../../generated/routes.js';
import { AppError, type FieldError } from '../kernel/appError.js';
import { documentedQuery } from './queryString.js';

export interface RawParams {
  path: Record<string, string>;
  query: Record<string, string>;
}

const canonicalDecimal = /^(?:0|[1-9][0-9]*)$/;

function integerProblem(field: string, text: string): FieldError | null {
  if (!canonicalDecimal.test(text)) {
    return {
      field,
      rejectedValue: text,
      message: 'must be a canonical decimal integer: digits only, without sign, leading zeros, spaces, decimal point or exponent',
    };
  }
  // Past 2^53 a decimal no longer names one number; the schemas' maxima are below that anyway.
  if (String(Number(text)) !== text) return { field, rejectedValue: text, message: `must be <= ${Number.MAX_SAFE_INTEGER}` };
  return null;
}

/** The route's parameters as strings; throws COMMON001 naming every parameter that breaks a rule above. */
export function readParams(c: Context, route: RouteDefinition): RawParams {
  const problems: FieldError[] = [];
  const path: Record<string, string> = { ...c.req.param() };
  const given = documentedQuery(c.req.url, route.queryParams);
  const query: Record<string, string> = {};
  for (const name of route.queryParams) {
    const values = given[name];
    if (values === undefined) continue;
    if (values.length > 1) problems.push({ field: `query.${name}`, rejectedValue: values, message: 'must be given at most once' });
    query[name] = values[0]!;
  }
  for (const [where, names, values] of [
    ['path', route.integerParams.path, path],
    ['query', route.integerParams.query, query],
  ] as const) {
    for (const name of names) {
      const problem = values[name] === undefined ? null : integerProblem(`${where}.${name}`, values[name]);
      if (problem && !problems.some((p) => p.field === problem.field)) problems.push(problem);
    }
  }
  if (problems.length > 0) throw new AppError('COMMON001', undefined, { fieldErrors: problems });
  return { path, query };
}
