// The URL of one operation: the base URL (a path prefix of it kept), the path template filled with
// percent-encoded values, and the query in `style: form, explode: true` (one `name=value` each).
import type { OperationEntry } from '../generated/http/operationTable.js';
import type { AnyInput } from './result.js';

const valueOf = (values: object | undefined, name: string): unknown => (values === undefined ? undefined : (values as Record<string, unknown>)[name]);

function text(value: unknown, what: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${what} must be a string, number or boolean`);
}

export function requestUrl(baseUrl: string, entry: OperationEntry, input: AnyInput): string {
  const path = entry.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = valueOf(input.path, name);
    if (value === undefined || value === null) throw new Error(`${entry.method} ${entry.path} needs path.${name}`);
    return encodeURIComponent(text(value, `path.${name}`));
  });
  const query = new URLSearchParams();
  for (const name of entry.queryParams) {
    const value = valueOf(input.query, name);
    if (value !== undefined && value !== null) query.append(name, text(value, `query.${name}`));
  }
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
}
