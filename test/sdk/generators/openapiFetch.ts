// Client team on openapi-typescript + openapi-fetch: `schema.d.ts` generated from the published
// openapi.yaml types the generic openapi-fetch client; no client code is generated.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { captureWarnings } from '../consoleCapture.js';
import type { ProbeTarget } from '../typedOperations.js';
import type { GeneratedSdk } from './generatedSdk.js';

/** `paths[path][method].responses[status].content[type]`, then the envelope's `data` for JSON successes. */
const openapiTypescriptType = (t: ProbeTarget): string => {
  const body = `G.paths[${JSON.stringify(t.path)}][${JSON.stringify(t.method)}]['responses'][${t.status}]['content'][${JSON.stringify(t.contentType)}]`;
  return t.kind === 'data' ? `${body}['data']` : body;
};

export const openapiFetch: GeneratedSdk = {
  generator: 'openapi-typescript + openapi-fetch',
  label: 'openapi-fetch',
  scenario: 'openapiFetchScenario.ts',
  async generate(openapiFile, dir) {
    const { warnings } = await captureWarnings(async () => {
      const ast = await openapiTS(pathToFileURL(openapiFile));
      fs.writeFileSync(path.join(dir, 'schema.d.ts'), astToString(ast));
    });
    return warnings;
  },
  typesModule: './schema.js',
  typeOf: openapiTypescriptType,
};
