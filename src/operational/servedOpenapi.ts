// openapi.yaml as served at /openapi.yaml: the document as written, except that the defaults of
// `servers[0].variables` (scheme, host, port; a local `npm start` in the file) become the origin the
// request reached. Swagger UI calls the first server, and an SDK generated from the served copy gets
// a base URL, so both talk to the server that served the document.
import { createRequire } from 'node:module';
import type { RequestOrigin } from '../kernel/requestOrigin.js';

const require = createRequire(import.meta.url);

const variables = ['scheme', 'host', 'port'] as const;
const maxCachedOrigins = 32;

export function servedOpenapi(text: string): (origin: RequestOrigin) => string {
  // Required here, on the first request for the document, rather than at start.
  const { parseDocument, isScalar } = require('yaml') as typeof import('yaml');
  const doc = parseDocument(text);
  // Offsets of the three default values in the text; everything else is served byte for byte.
  const ranges = variables.map((name) => {
    const node = doc.getIn(['servers', 0, 'variables', name, 'default'], true);
    if (!isScalar(node) || !node.range) throw new Error(`openapi.yaml: servers[0].variables.${name}.default is missing`);
    return { name, start: node.range[0], end: node.range[1] };
  });
  ranges.sort((a, b) => b.start - a.start);
  const cache = new Map<string, string>();
  return (origin) => {
    const key = `${origin.scheme}://${origin.host}:${origin.port}`;
    let served = cache.get(key);
    if (served === undefined) {
      served = ranges.reduce((out, { name, start, end }) => out.slice(0, start) + JSON.stringify(origin[name]) + out.slice(end), text);
      if (cache.size >= maxCachedOrigins) cache.clear();
      cache.set(key, served);
    }
    return served;
  };
}
