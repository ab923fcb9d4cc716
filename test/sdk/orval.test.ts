// Client team on orval (fetch client, one file): generate from the openapi.yaml the service
// publishes with the orval CLI and an orval.config.ts, check that every operation comes out typed,
// compile the client flow with tsc --strict, run it against the service. orval is pinned at 7.13.2,
// the newest release whose `engines` allow Node 20 (7.14 and later require Node >= 22.18).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPublishedSpecs, type PublishedSpecs } from './publishedSpecs.js';
import { expectScenario, type ScenarioProgram } from './scenarioExpectations.js';
import { compile } from './strictCompile.js';
import { stompRealtime } from './stompRealtime.js';
import { checkTypedOperations, operationCount, type ProbeTarget } from './typedOperations.js';
import { jsonAt, objectOrEmpty, readYaml, type Json } from '../../conformance/specModel/index.js';

const program = path.resolve(import.meta.dirname, '../fixtures/sdk/orvalScenario.ts');
const orvalCli = path.resolve(import.meta.dirname, '../../node_modules/.bin/orval');

/** orval's fetch client answers `{status, data}` per status, with the whole body in `data`. */
/** orval names a response's type per media type when it documents several (`…Response200ApplicationJson`). */
const mediaTypeSuffix = (target: ProbeTarget): string =>
  target.mediaTypes > 1
    ? target.contentType
        .split(/[/+.-]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('')
    : '';

const orvalType = (target: ProbeTarget): string => {
  const response = `G.${target.operationId}Response${target.status}${mediaTypeSuffix(target)}['data']`;
  return target.kind === 'data' ? `${response}['data']` : response;
};

/**
 * Runs `orval --config orval.config.ts` in `dir` (client in `dir/client/api.ts`, base URL from the
 * document's first server with its variables' defaults). orval prints its warnings (⚠️) among its
 * progress lines on stdout; they are returned, with anything on stderr.
 */
async function generateOrval(input: string, dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const config = {
    trip: {
      input: { target: input },
      output: { target: './client/api.ts', client: 'fetch', mode: 'single', baseUrl: { getBaseUrlFromSpecification: true } },
    },
  };
  fs.writeFileSync(path.join(dir, 'orval.config.ts'), `export default ${JSON.stringify(config, null, 2)};\n`);
  const { stdout, stderr } = await promisify(execFile)(orvalCli, ['--config', './orval.config.ts'], { cwd: dir });
  const warnings = stdout.split(/\n(?=\S)/).filter((block) => block.includes('⚠️'));
  return [...warnings, ...(stderr.trim() ? [stderr.trim()] : [])];
}

describe('orval on the published openapi.yaml', () => {
  let specs: PublishedSpecs;
  let workDir: string;
  let warnings: string[];

  beforeAll(async () => {
    specs = await startWithPublishedSpecs('orval');
    workDir = path.join(specs.dir, 'orval');
    warnings = await generateOrval(specs.openapiFile, workDir);
    fs.copyFileSync(program, path.join(workDir, 'scenario.ts'));
  }, 60_000);
  afterAll(() => specs?.dispose());

  it('generates without a warning', () => {
    expect(warnings).toEqual([]);
  });

  it('types the 2xx data and every error body of every operation', () => {
    const openapi = readYaml(specs.openapiFile);
    const result = checkTypedOperations(openapi, workDir, ["import type * as G from './client/api.js';"], orvalType);
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

  it('names the operations it cannot type, and reports its warnings: the 1.x envelopes (allOf over CommonResponse, CursorPage) came out never and unknown', async () => {
    const openapi = readYaml(specs.openapiFile);
    const schemas = objectOrEmpty(jsonAt(openapi, 'components', 'schemas'));
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    // As openapi.yaml 1.0.0 wrote them.
    schemas.LegacyCommonResponse = {
      type: 'object',
      required: ['success', 'status', 'data'],
      properties: { success: { type: 'boolean' }, status: ref('HttpStatus'), data: {} },
    };
    schemas.CursorPage = {
      type: 'object',
      required: ['content', 'nextCursor', 'hasNext', 'size'],
      properties: {
        content: { type: 'array', maxItems: 100, items: {} },
        nextCursor: ref('NextCursor'),
        hasNext: { type: 'boolean' },
        size: { type: 'integer' },
      },
    };
    const legacyEnvelope = (data: Json) => ({
      type: 'object',
      allOf: [ref('LegacyCommonResponse'), { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } }],
      unevaluatedProperties: false,
    });
    schemas.TripPlanDetailEnvelope = legacyEnvelope(ref('TripPlanDetailResponse'));
    schemas.TripPlanPageResponse = {
      type: 'object',
      allOf: [ref('CursorPage'), { type: 'object', properties: { content: { type: 'array', items: ref('TripPlanResponse') } } }],
      unevaluatedProperties: false,
    };
    // 1.x also described its server; orval's validator rejects a description on a server variable.
    objectOrEmpty(jsonAt(openapi, 'servers', 0, 'variables', 'port')).description = 'Port of the service.';
    const legacyDir = path.join(specs.dir, 'orval-legacy');
    const legacyFile = path.join(specs.dir, 'legacy-openapi.yaml');
    fs.writeFileSync(legacyFile, YAML.stringify(openapi));
    const legacyWarnings = await generateOrval(legacyFile, legacyDir);
    expect(legacyWarnings).toEqual([expect.stringContaining('#/servers/0/variables/port must NOT have unevaluated properties')]);
    const result = checkTypedOperations(openapi, legacyDir, ["import type * as G from './client/api.js';"], orvalType);
    expect(result.untyped).toEqual({ getTripPlan: ['200 data is never'], listTripPlans: ['200 data.content[] is unknown'] });
    expect(result.typed.length).toBe(operationCount(openapi) - 2);
  }, 60_000);
});
