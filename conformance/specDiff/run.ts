// The body of `trip-spec-diff` (npm run spec:diff), separate from the CLI entry so tests can run it
// against a throwaway git repository and read its output instead of spawning a process.
import path from 'node:path';
import { diffSpecs } from './diffSpecs.js';
import { describeRef, loadSpecsAtRef } from './loadSpecs.js';
import { formatDiff, verdict } from './report.js';
import { loadSpecFolder } from '../specModel/index.js';

export const usage = `Usage: trip-spec-diff <git-ref> [--fail-on-breaking]
       (in this repository: npm run spec:diff -- <git-ref> [--fail-on-breaking])

Run in a project folder with a specs/ folder under git. Compares specs/openapi.yaml,
specs/asyncapi.yaml and specs/internal/events.asyncapi.yaml at <git-ref> (the AsyncAPI documents
bundled against the openapi.yaml of that same ref) with the working tree, and prints every change as
BREAKING, WARNING or non-breaking with its location and reason.
Requests and STOMP sends break when they accept less; responses and STOMP receives break when they
may carry more or lose fields. A WARNING breaks some clients and not others (a field added to a
closed response schema breaks strict validators), or could not be decided (a pattern change that
is neither proven nor refuted); warnings are counted but never change the exit code.

Exit codes:
  0  no breaking change; or breaking changes in a document whose info.version major went up
     (e.g. 1.4.0 → 2.0.0), which is how we announce them; or breaking changes without
     --fail-on-breaking (printed as a WARNING); or <git-ref> has no specs/openapi.yaml yet
  1  with --fail-on-breaking: a document has breaking changes and its major version did not go up
  2  usage error, unknown git ref, or a spec that cannot be read

Each document is judged on its own version: a breaking change in a schema both share (e.g.
ErrorResponse) needs both info.version majors bumped.`;

export interface RunOptions {
  root?: string; // project directory holding specs/ (default: the current directory)
  log?: (line: string) => void;
}

export function runSpecDiff(args: string[], options: RunOptions = {}): number {
  const root = options.root ?? process.cwd();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (args.includes('--help') || args.includes('-h')) {
    log(usage);
    return 0;
  }
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--fail-on-breaking');
  const refs = args.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || refs.length !== 1) {
    log(unknown.length > 0 ? `unknown option ${unknown.join(' ')}` : 'expected exactly one <git-ref>');
    log(usage);
    return 2;
  }
  const ref = refs[0]!;
  const failOnBreaking = args.includes('--fail-on-breaking');
  try {
    const old = loadSpecsAtRef(root, ref);
    if (!old) {
      log(`${ref} (${describeRef(root, ref)}) has no specs/openapi.yaml: nothing to compare against, no breaking change possible.`);
      return 0;
    }
    const current = loadSpecFolder(path.join(root, 'specs'));
    log(`Comparing specs at ${ref} (${describeRef(root, ref)}) with the working tree`);
    const diff = diffSpecs(old, current);
    const outcome = verdict(diff, failOnBreaking);
    for (const line of [...formatDiff(diff), ...outcome.lines]) log(line);
    return outcome.exitCode;
  } catch (error) {
    log(`spec:diff: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
