// Client team on openapi-typescript + openapi-fetch: generate types from the openapi.yaml the
// service publishes, check that every operation comes out typed, compile a program that runs the
// whole flow with tsc --strict, run it against the service.
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
import { checkTypedOperations, operationCount, type ProbeTarget } from './typedOperations.js';
import { readYaml } from '../../conformance/specModel/index.js';

const program = path.resolve(import.meta.dirname, '../fixtures/sdk/openapiFetchScenario.ts');

/** `paths[path][method].responses[status].content[type]`, then the envelope's `data` for JSON successes. */
const openapiTypescriptType = (t: ProbeTarget): string => {
  const body = `G.paths[${JSON.stringify(t.path)}][${JSON.stringify(t.method)}]['responses'][${t.status}]['content'][${JSON.stringify(t.contentType)}]`;
  return t.kind === 'data' ? `${body}['data']` : body;
};

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

  it('types the 2xx data and every error body of every operation', () => {
    const openapi = readYaml(specs.openapiFile);
    const result = checkTypedOperations(openapi, workDir, ["import type * as G from './schema.js';"], openapiTypescriptType);
    expect(result.untyped).toEqual({});
    expect(result.typed.length).toBe(operationCount(openapi));
    expect(result.total).toBe(operationCount(openapi));
  });

  it('compiles the flow program with tsc --strict', () => {
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
