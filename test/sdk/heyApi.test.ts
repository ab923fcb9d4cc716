// Client team on @hey-api/openapi-ts: generate the fetch client, types and SDK functions from the
// openapi.yaml the service publishes, check that every operation comes out typed, compile them with
// the flow program under tsc --strict, run it against the service.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureWarnings } from './consoleCapture.js';
import { startWithPublishedSpecs, type PublishedSpecs } from './publishedSpecs.js';
import { expectScenario, type ScenarioProgram } from './scenarioExpectations.js';
import { compile } from './strictCompile.js';
import { stompRealtime } from './stompRealtime.js';
import { checkTypedOperations, operationCount, type ProbeTarget } from './typedOperations.js';
import { readYaml } from '../../conformance/specModel/index.js';

const program = path.resolve(import.meta.dirname, '../fixtures/sdk/heyApiScenario.ts');

/** `<Operation>Responses[status]` (then the envelope's `data` for JSON) and `<Operation>Errors[status]`. */
const heyApiType = (t: ProbeTarget): string => {
  const operation = t.operationId.charAt(0).toUpperCase() + t.operationId.slice(1);
  if (t.kind === 'error') return `G.${operation}Errors[${t.status}]`;
  const body = `G.${operation}Responses[${t.status}]`;
  return t.kind === 'data' ? `${body}['data']` : body;
};

describe('@hey-api/openapi-ts on the published openapi.yaml', () => {
  let specs: PublishedSpecs;
  let workDir: string;
  let warnings: string[];

  beforeAll(async () => {
    specs = await startWithPublishedSpecs('hey-api');
    workDir = path.join(specs.dir, 'hey-api');
    ({ warnings } = await captureWarnings(() =>
      createClient({
        // An absolute path: a bare `org/project` would be read as a Hey API registry name and fetched.
        input: specs.openapiFile,
        output: {
          path: path.join(workDir, 'client'),
          // Explicit, or the generator derives it from whichever tsconfig.json it finds above its own package.
          importFileExtension: '.js',
          tsConfigPath: null,
        },
        plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
        // `warn` so that warnings surface; no log file, no browser on a crash.
        logs: { level: 'warn', file: false },
        interactive: false,
      }),
    ));
    fs.copyFileSync(program, path.join(workDir, 'scenario.ts'));
  });
  afterAll(() => specs?.dispose());

  it('generates without a warning', () => {
    expect(warnings).toEqual([]);
  });

  it('types the 2xx data and every error body of every operation', () => {
    const openapi = readYaml(specs.openapiFile);
    const result = checkTypedOperations(openapi, workDir, ["import type * as G from './client/types.gen.js';"], heyApiType);
    expect(result.untyped).toEqual({});
    expect(result.typed.length).toBe(operationCount(openapi));
    expect(result.total).toBe(operationCount(openapi));
  });

  it('compiles the generated client and the flow program with tsc --strict', () => {
    expect(compile([path.join(workDir, 'scenario.ts')], { rootDir: workDir, outDir: path.join(workDir, 'out') })).toEqual([]);
  });

  it('runs the flow against the service: login, create, start, page, days, swap, chat history, rename, delete, typed 404', async () => {
    const { runScenario } = (await import(pathToFileURL(path.join(workDir, 'out/scenario.js')).href)) as ScenarioProgram;
    const realtime = stompRealtime(specs.server.url);
    try {
      expectScenario(await runScenario(specs.server.url, realtime), realtime.messages());
    } finally {
      await realtime.close();
    }
  });
});
