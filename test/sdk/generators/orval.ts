// Client team on orval (fetch client, one file): generated from the published openapi.yaml with
// the orval CLI and an orval.config.ts. orval is pinned at 7.13.2, the newest release whose
// `engines` allow Node 20 (7.14 and later require Node >= 22.18).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { expect, it } from 'vitest';
import { readYaml } from '../../../conformance/specModel/index.js';
import { checkTypedOperations, operationCount, type ProbeTarget } from '../typedOperations.js';
import { probeImports, type GeneratedSdk } from './generatedSdk.js';
import { withLegacyEnvelopes } from './legacyEnvelopes.js';

const orvalCli = path.resolve(import.meta.dirname, '../../../node_modules/.bin/orval');
const typesModule = './client/api.js';

/** orval names a response's type per media type when it documents several (`…Response200ApplicationJson`). */
const mediaTypeSuffix = (target: ProbeTarget): string =>
  target.mediaTypes > 1
    ? target.contentType
        .split(/[/+.-]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join('')
    : '';

/** orval's fetch client answers `{status, data}` per status, with the whole body in `data`. */
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

export const orval: GeneratedSdk = {
  generator: 'orval',
  label: 'orval',
  scenario: 'orvalScenario.ts',
  generate: generateOrval,
  typesModule,
  typeOf: orvalType,
  moreTests(workspace) {
    it('names the operations it cannot type, and reports its warnings: the 1.x envelopes (allOf over CommonResponse, CursorPage) came out never and unknown', async () => {
      const { specs } = workspace();
      const legacy = withLegacyEnvelopes(readYaml(specs.openapiFile));
      const legacyDir = path.join(specs.dir, 'orval-legacy');
      const legacyFile = path.join(specs.dir, 'legacy-openapi.yaml');
      fs.writeFileSync(legacyFile, YAML.stringify(legacy));
      // 1.x described its server's port; orval's validator rejects a description on a server variable.
      expect(await generateOrval(legacyFile, legacyDir)).toEqual([expect.stringContaining('#/servers/0/variables/port must NOT have unevaluated properties')]);
      const result = checkTypedOperations(legacy, legacyDir, probeImports(typesModule), orvalType);
      expect(result.untyped).toEqual({ getTripPlan: ['200 data is never'], listTripPlans: ['200 data.content[] is unknown'] });
      expect(result.typed.length).toBe(operationCount(legacy) - 2);
    }, 60_000);
  },
};
