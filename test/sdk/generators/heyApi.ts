// Client team on @hey-api/openapi-ts: the fetch client, types and SDK functions (client-fetch +
// typescript + sdk plugins) generated from the published openapi.yaml.
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import { captureWarnings } from '../consoleCapture.js';
import type { ProbeTarget } from '../typedOperations.js';
import type { GeneratedSdk } from './generatedSdk.js';

/** `<Operation>Responses[status]` (then the envelope's `data` for JSON) and `<Operation>Errors[status]`. */
const heyApiType = (t: ProbeTarget): string => {
  const operation = t.operationId.charAt(0).toUpperCase() + t.operationId.slice(1);
  if (t.kind === 'error') return `G.${operation}Errors[${t.status}]`;
  const body = `G.${operation}Responses[${t.status}]`;
  return t.kind === 'data' ? `${body}['data']` : body;
};

export const heyApi: GeneratedSdk = {
  generator: '@hey-api/openapi-ts',
  label: 'hey-api',
  scenario: 'heyApiScenario.ts',
  async generate(openapiFile, dir) {
    const { warnings } = await captureWarnings(() =>
      createClient({
        // An absolute path: a bare `org/project` would be read as a Hey API registry name and fetched.
        input: openapiFile,
        output: {
          path: path.join(dir, 'client'),
          // Explicit, or the generator derives it from whichever tsconfig.json it finds above its own package.
          importFileExtension: '.js',
          tsConfigPath: null,
        },
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
        // `warn` so that warnings surface; no log file, no browser on a crash.
        logs: { level: 'warn', file: false },
        interactive: false,
      }),
    );
    return warnings;
  },
  typesModule: './client/types.gen.js',
  typeOf: heyApiType,
};
