// Spec lint: Spectral (the project's ruleset, e.g. spectral:oas, spectral:asyncapi and OWASP) on the
// documents of a spec folder (the internal events document included), failing on any warning, then
// the rules of openapi.yaml's own extensions (`x-error-codes`, `x-paging`), then the official
// AsyncAPI parser's validation of asyncapi.yaml as written, of its bundled copy (as a server serves
// it, cross-file refs inlined) and of the internal events document, then the rules of
// asyncapi.yaml's `x-delivery` (deliveryRules.ts). 0 only when all are clean.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fromFile, Parser } from '@asyncapi/parser';
import { bundle, readYaml, specFolderFiles } from '../specModel/index.js';
import { deliveryProblems } from './deliveryRules.js';
import { errorCodeListProblems } from './errorCodeLists.js';
import { pagingExtensionProblems } from './pagingExtensionRule.js';

export interface LintOptions {
  /** the spec folder (openapi.yaml, asyncapi.yaml, internal/events.asyncapi.yaml) */
  specsDir: string;
  /** Spectral's ruleset file */
  ruleset: string;
  /** where Spectral runs and what paths are printed relative to */
  cwd: string;
}

const severityNames = ['error', 'warning', 'info', 'hint'];

function spectralBin(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@stoplight/spectral-cli/package.json');
  const { bin } = require(manifest) as { bin: { spectral: string } };
  return path.join(path.dirname(manifest), bin.spectral);
}

/** Prints what is wrong with openapi.yaml's extensions; returns how many problems there are. */
function extensionProblems(file: string, cwd: string): number {
  const name = path.relative(cwd, file);
  let problems: string[];
  try {
    const openapi = readYaml(file);
    problems = [...errorCodeListProblems(openapi), ...pagingExtensionProblems(openapi)];
  } catch (error) {
    problems = [`its extensions could not be checked: ${error instanceof Error ? error.message : String(error)}`];
  }
  for (const problem of problems) process.stdout.write(`${name} error ${problem}\n`);
  if (problems.length === 0) process.stdout.write(`${name}: x-error-codes and x-paging are consistent with the document\n`);
  return problems.length;
}

export async function lintSpecs({ specsDir, ruleset, cwd }: LintOptions): Promise<0 | 1> {
  const files = specFolderFiles(specsDir);
  const documents = [files.openapi, files.asyncapi, files.internalEvents].filter((file) => fs.existsSync(file));
  let failed = false;

  const spectral = spawnSync(process.execPath, [spectralBin(), 'lint', ...documents, '--ruleset', ruleset, '--fail-severity', 'warn'], {
    stdio: 'inherit',
    cwd,
  });
  if (spectral.status !== 0) failed = true;
  if (fs.existsSync(files.openapi) && extensionProblems(files.openapi, cwd) > 0) failed = true;

  const parser = new Parser();
  const asyncapiDocuments: { name: string; parse: () => ReturnType<Parser['parse']> }[] = [];
  const asWritten = (file: string) => ({ name: path.relative(cwd, file), parse: () => fromFile(parser, file).parse() });
  if (fs.existsSync(files.asyncapi)) {
    asyncapiDocuments.push(asWritten(files.asyncapi), {
      name: `${path.relative(cwd, files.asyncapi)} (bundled)`,
      parse: () => parser.parse(JSON.stringify(bundle(files.asyncapi))),
    });
  }
  if (fs.existsSync(files.internalEvents)) asyncapiDocuments.push(asWritten(files.internalEvents));
  for (const { name, parse } of asyncapiDocuments) {
    const { document, diagnostics } = await parse();
    // DiagnosticSeverity 0 is an error, 1 a warning; the parser exports a different copy of that enum than its diagnostics carry.
    const problems = diagnostics.filter((d) => (d.severity as number) <= 1);
    for (const d of diagnostics) process.stdout.write(`${name} ${severityNames[d.severity]} ${d.code} ${d.path.join('.')}: ${d.message}\n`);
    if (!document || problems.length > 0) failed = true;
    else process.stdout.write(`@asyncapi/parser: ${name} is valid AsyncAPI ${document.version()}\n`);
  }
  if (fs.existsSync(files.asyncapi) && fs.existsSync(files.openapi)) {
    const problems = deliveryProblems(bundle(files.asyncapi), readYaml(files.openapi));
    for (const problem of problems) process.stdout.write(`${path.relative(cwd, files.asyncapi)} error x-delivery ${problem}\n`);
    if (problems.length > 0) failed = true;
    else process.stdout.write(`x-delivery: ${path.relative(cwd, files.asyncapi)} keeps its rules\n`);
  }
  return failed ? 1 : 0;
}
