// Client team on openapi-typescript + openapi-fetch: generate types from the openapi.yaml the
// service publishes, compile a program that runs the whole scenario with tsc --strict, run it.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureWarnings } from './consoleCapture.js';
import { startWithPublishedSpecs, type PublishedSpecs } from './publishedSpecs.js';
import { expectScenario, type ScenarioProgram } from './scenarioExpectations.js';
import { compile } from './strictCompile.js';
import { stompRealtime } from './stompRealtime.js';

const program = path.resolve(import.meta.dirname, '../fixtures/sdk/openapiFetchScenario.ts');

describe('openapi-typescript + openapi-fetch on the published openapi.yaml', () => {
  let specs: PublishedSpecs;
  let workDir: string;
  let warnings: string[];

  beforeAll(async () => {
    specs = await startWithPublishedSpecs('openapi-fetch');
    workDir = path.join(specs.dir, 'openapi-fetch');
    fs.mkdirSync(workDir);
    ({ warnings } = await captureWarnings(async () => {
      const ast = await openapiTS(pathToFileURL(specs.openapiFile));
      fs.writeFileSync(path.join(workDir, 'schema.d.ts'), astToString(ast));
    }));
    fs.copyFileSync(program, path.join(workDir, 'scenario.ts'));
  });
  afterAll(() => specs?.dispose());

  it('generates without a warning', () => {
    expect(warnings).toEqual([]);
  });

  it('compiles the scenario program with tsc --strict', () => {
    expect(compile([path.join(workDir, 'scenario.ts')], { rootDir: workDir, outDir: path.join(workDir, 'out') })).toEqual([]);
  });

  it('runs the scenario against the service: login, create, list, start, stream, days, swap, delete, 404', async () => {
    const { runScenario } = (await import(pathToFileURL(path.join(workDir, 'out/scenario.js')).href)) as ScenarioProgram;
    const realtime = stompRealtime(specs.server.url);
    try {
      expectScenario(await runScenario(specs.server.url, realtime), realtime.messages());
    } finally {
      await realtime.close();
    }
  });
});
