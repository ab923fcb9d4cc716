// Whether a response's Content-Type is the media type a spec documents (RFC 9110 §8.3.1): the same
// type/subtype, case-insensitive, and every parameter the spec names with the same value. A server
// may add parameters the spec leaves out (`charset=utf-8` on `text/plain; version=0.0.4`).

interface MediaType {
  essence: string;
  parameters: Map<string, string>;
}

function parseMediaType(text: string): MediaType {
  const [essence = '', ...parameters] = text.split(';');
  const parsed = new Map<string, string>();
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0) continue;
    const name = parameter.slice(0, equals).trim().toLowerCase();
    const value = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    // charset values are case-insensitive; others are compared as written.
    parsed.set(name, name === 'charset' ? value.toLowerCase() : value);
  }
  return { essence: essence.trim().toLowerCase(), parameters: parsed };
}

export function mediaTypeSatisfies(actual: string | null, documented: string): boolean {
  if (!actual) return false;
  const got = parseMediaType(actual);
  const wanted = parseMediaType(documented);
  if (got.essence !== wanted.essence) return false;
  return [...wanted.parameters].every(([name, value]) => got.parameters.get(name) === value);
}
