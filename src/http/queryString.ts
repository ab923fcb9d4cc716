// The values of a request's documented query parameters, read straight from its URL: Hono's
// `c.req.queries()` builds a dictionary of every parameter, which cost about ten times as much on
// every list request. Decoded as Hono decodes them (form encoding: `+` is a space; percent escapes
// decoded, a malformed one left as written), so what the validators see does not change.

/** Each documented name's values, in the order given; undocumented parameters and empty names are skipped. */
export function documentedQuery(url: string, names: readonly string[]): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  if (names.length === 0) return values;
  const hash = url.indexOf('#', 8);
  const end = hash === -1 ? url.length : hash;
  const question = url.indexOf('?', 8);
  if (question === -1 || question > end) return values;
  let start = question + 1;
  while (start <= end) {
    let pairEnd = url.indexOf('&', start);
    if (pairEnd === -1 || pairEnd > end) pairEnd = end;
    let equals = url.indexOf('=', start);
    if (equals === -1 || equals > pairEnd) equals = pairEnd;
    const name = decodeQueryComponent(url.slice(start, equals));
    if (name !== '' && names.includes(name)) {
      const value = equals === pairEnd ? '' : decodeQueryComponent(url.slice(equals + 1, pairEnd));
      (values[name] ??= []).push(value);
    }
    start = pairEnd + 1;
  }
  return values;
}

const escapes = /(?:%[0-9A-Fa-f]{2})+/g;

function decodeQueryComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replaceAll('+', ' ');
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape stays as written; the well-formed runs around it are decoded.
    return spaced.replace(escapes, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
