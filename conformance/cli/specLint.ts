// `trip-spec-lint [--specs DIR] [--ruleset FILE]` (npm run lint:spec): Spectral and the AsyncAPI
// parser on the spec folder. Exit code 0 only when every document is clean.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { lintSpecs } from '../lint/lintSpecs.js';

const usage = `usage: trip-spec-lint [--specs DIR] [--ruleset FILE]
  --specs DIR      the spec folder: openapi.yaml, asyncapi.yaml, internal/events.asyncapi.yaml (default: specs)
  --ruleset FILE   Spectral's ruleset (default: .spectral.yaml)
Paths are relative to the current directory.
`;

const { values } = parseArgs({
  options: { specs: { type: 'string', default: 'specs' }, ruleset: { type: 'string', default: '.spectral.yaml' }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}
const cwd = process.cwd();
process.exit(await lintSpecs({ specsDir: path.resolve(values.specs), ruleset: path.resolve(values.ruleset), cwd }));
