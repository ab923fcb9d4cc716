// `npm run lint:spec`: Spectral (spectral:oas, spectral:asyncapi, OWASP; see .spectral.yaml) on the
// specs (the internal events document included), failing on any warning, then the official AsyncAPI
// parser's validation of asyncapi.yaml, of its bundled copy and of the internal events document.
// Exit code 0 only when all are clean.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import { asyncapiPath, generatedDir, internalEventsPath, openapiPath, repoRoot } from '../../codegen/specFiles.js';

const severityNames = ['error', 'warning', 'info', 'hint'];
let failed = false;

const spectral = spawnSync(
  path.join(repoRoot, 'node_modules', '.bin', 'spectral'),
  ['lint', openapiPath, asyncapiPath, internalEventsPath, '--ruleset', path.join(repoRoot, '.spectral.yaml'), '--fail-severity', 'warn'],
  { stdio: 'inherit', cwd: repoRoot },
);
if (spectral.status !== 0) failed = true;

const parser = new Parser();
for (const file of [asyncapiPath, path.join(generatedDir, 'asyncapi.bundled.yaml'), internalEventsPath]) {
  const { document, diagnostics } = await fromFile(parser, file).parse();
  const problems = diagnostics.filter((d) => d.severity <= 1);
  for (const d of diagnostics) {
    process.stdout.write(`${path.relative(repoRoot, file)} ${severityNames[d.severity]} ${d.code} ${d.path.join('.')}: ${d.message}\n`);
  }
  if (!document || problems.length > 0) failed = true;
  else process.stdout.write(`@asyncapi/parser: ${path.relative(repoRoot, file)} is valid AsyncAPI ${document.version()}\n`);
}

process.exit(failed ? 1 : 0);
