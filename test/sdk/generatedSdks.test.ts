// Client teams on three generators, one flow: each generates its SDK from the openapi.yaml the
// service publishes, checks that every operation comes out typed, compiles its flow program
// (test/fixtures/sdk/) with the generated code under tsc --strict, and runs it against the service,
// which has to answer the same whichever SDK drove it. What differs per generator is its row
// (test/sdk/generators/).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../../conformance/specModel/index.js';
import { probeImports, type GeneratedSdk } from './generators/generatedSdk.js';
import { heyApi } from './generators/heyApi.js';
import { openapiFetch } from './generators/openapiFetch.js';
import { orval } from './generators/orval.js';
import { startWithPublishedSpecs, type PublishedSpecs } from './publishedSpecs.js';
import { expectScenario, type ScenarioProgram } from './scenarioExpectations.js';
import { compile } from './strictCompile.js';
import { stompRealtime } from './stompRealtime.js';
import { checkTypedOperations, operationCount } from './typedOperations.js';

const generatedSdks: GeneratedSdk[] = [heyApi, openapiFetch, orval];

const programs = path.resolve(import.meta.dirname, '../fixtures/sdk');
/** What every flow program imports next to itself. */
const commonProgram = 'scenarioCommon.ts';

// `%s` of a string rather than `$generator`, which would quote the name in the title.
describe.each(generatedSdks.map((sdk) => [sdk.generator, sdk] as const))('%s on the published openapi.yaml', (_generator, sdk) => {
  let specs: PublishedSpecs;
  let dir: string;
  let warnings: string[];

  beforeAll(async () => {
    specs = await startWithPublishedSpecs(sdk.label);
    dir = path.join(specs.dir, sdk.label);
    fs.mkdirSync(dir);
    warnings = await sdk.generate(specs.openapiFile, dir);
    fs.copyFileSync(path.join(programs, sdk.scenario), path.join(dir, 'scenario.ts'));
    fs.copyFileSync(path.join(programs, commonProgram), path.join(dir, commonProgram));
  });
  afterAll(() => specs?.dispose());

  it('generates without a warning', () => {
    expect(warnings).toEqual([]);
  });

  it('types the 2xx data and every error body of every operation', () => {
    const openapi = readYaml(specs.openapiFile);
    const result = checkTypedOperations(openapi, dir, probeImports(sdk.typesModule), sdk.typeOf);
    expect(result.untyped).toEqual({});
    expect(result.typed.length).toBe(operationCount(openapi));
    expect(result.total).toBe(operationCount(openapi));
  });

  it('compiles the generated code and the flow program with tsc --strict', () => {
    expect(compile([path.join(dir, 'scenario.ts')], { rootDir: dir, outDir: path.join(dir, 'out') })).toEqual([]);
  });

  it('runs the flow against the service: login, create, start, page, days, swap, chat history, rename, delete, typed 404', async () => {
    const { runScenario } = (await import(pathToFileURL(path.join(dir, 'out/scenario.js')).href)) as ScenarioProgram;
    const realtime = stompRealtime(specs.server.url);
    try {
      expectScenario(await runScenario(specs.server.url, realtime), realtime.messages());
    } finally {
      await realtime.close();
    }
  });

  sdk.moreTests?.(() => ({ specs, dir }));
});
