// Turns a SpecDiff into lines for people and an exit code for CI. Breaking changes come first in
// each document, then warnings, so the top of the output is what needs attention.
import type { Change, Severity } from './change.js';
import type { DocumentResult, SpecDiff } from './diffSpecs.js';

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const LABEL_WIDTH = 14;
const labels: Record<Severity, string> = { breaking: 'BREAKING', warning: 'WARNING', 'non-breaking': 'non-breaking' };
const severityOrder: Severity[] = ['breaking', 'warning', 'non-breaking'];

function formatChange(change: Change): string[] {
  const label = labels[change.severity].padEnd(LABEL_WIDTH);
  return [`  ${label}${change.location}`, `  ${' '.repeat(LABEL_WIDTH)}${change.reason}  [${change.rule}]`];
}

// A change to a shared schema (ErrorResponse, say) repeats under every error status of every
// operation; one line per operation listing the statuses keeps the output readable. Only the
// printout is merged: the Change list stays one entry per status.
function mergeStatuses(changes: Change[]): Change[] {
  const groups = new Map<string, { change: Change; statuses: string[] }>();
  for (const change of changes) {
    const status = / response (\d{3})\b/.exec(change.location);
    const key = [change.severity, change.rule, change.reason, status ? change.location.replace(status[0], ' response *') : change.location].join('\0');
    const group = groups.get(key);
    if (group && status) group.statuses.push(status[1]!);
    else groups.set(key, { change, statuses: status ? [status[1]!] : [] });
  }
  return [...groups.values()].map(({ change, statuses }) =>
    statuses.length > 1 ? { ...change, location: change.location.replace(/ response \d{3}\b/, ` responses ${statuses.join(', ')}`) } : change,
  );
}

function heading(doc: DocumentResult): string {
  const versions = `${doc.oldVersion ?? '(absent)'} → ${doc.newVersion ?? '(absent)'}`;
  const nonBreaking = doc.changes.length - doc.breaking - doc.warnings;
  const tally =
    doc.changes.length === 0 ? 'no changes' : `${count(doc.breaking, 'breaking change')}, ${count(doc.warnings, 'warning')}, ${nonBreaking} non-breaking`;
  return `${doc.file}  info.version ${versions}: ${tally}`;
}

export function formatDiff(diff: SpecDiff): string[] {
  const lines: string[] = [];
  for (const doc of diff.documents) {
    lines.push('', heading(doc));
    const ordered = severityOrder.flatMap((severity) => doc.changes.filter((c) => c.severity === severity));
    for (const change of mergeStatuses(ordered)) lines.push(...formatChange(change));
  }
  return lines;
}

// Warnings never fail the check; they are counted under the verdict so they are not missed.
function warningLines(diff: SpecDiff): string[] {
  return diff.documents
    .filter((d) => d.warnings > 0)
    .map(
      (d) =>
        `NOTE: ${d.file}: ${count(d.warnings, 'warning')}: ${d.warnings === 1 ? 'a change' : 'changes'} that may break some clients; ` +
        `${d.warnings === 1 ? 'it does' : 'they do'} not fail the check, read ${d.warnings === 1 ? 'it' : 'them'} above.`,
    );
}

// 1 only when asked to fail and some document has breaking changes without a major bump.
export function verdict(diff: SpecDiff, failOnBreaking: boolean): { exitCode: 0 | 1; lines: string[] } {
  const outcome = breakingVerdict(diff, failOnBreaking);
  return { exitCode: outcome.exitCode, lines: [...outcome.lines, ...warningLines(diff)] };
}

function breakingVerdict(diff: SpecDiff, failOnBreaking: boolean): { exitCode: 0 | 1; lines: string[] } {
  const lines: string[] = [''];
  const unbumped = diff.documents.filter((d) => d.breaking > 0 && !d.majorBumped);
  for (const doc of diff.documents.filter((d) => d.breaking > 0 && d.majorBumped)) {
    lines.push(`OK: ${doc.file}: ${count(doc.breaking, 'breaking change')} accepted, info.version major bumped (${doc.oldVersion} → ${doc.newVersion}).`);
  }
  if (unbumped.length === 0) {
    if (diff.documents.every((d) => d.breaking === 0)) lines.push('OK: no breaking changes.');
    return { exitCode: 0, lines };
  }
  for (const doc of unbumped) {
    const prefix = failOnBreaking ? 'FAIL' : 'WARNING';
    lines.push(
      `${prefix}: ${doc.file}: ${count(doc.breaking, 'breaking change')} without a major version bump ` +
        `(info.version ${doc.oldVersion ?? '(absent)'} → ${doc.newVersion ?? '(absent)'}). Make the change additive, or bump the major version.`,
    );
  }
  if (!failOnBreaking) lines.push('Not failing: run with --fail-on-breaking to exit 1 on this.');
  return { exitCode: failOnBreaking ? 1 : 0, lines };
}
