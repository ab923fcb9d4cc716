// The runner's console output: one line per phase with its counts, the first failures with their
// replay lines, and a closing "N passed, N failed" line that CI log readers understand.
import type { PhaseReport } from './checks.js';
import type { CoverageReport } from './coverage.js';

export function printPhase(report: PhaseReport): void {
  const status = report.failures.length === 0 ? 'ok  ' : 'FAIL';
  process.stdout.write(
    `${status} ${report.phase.padEnd(10)} ${String(report.requests).padStart(5)} requests ${String(report.messages).padStart(5)} messages ${String(report.checks).padStart(6)} checks ${String(report.failures.length).padStart(4)} failed  ${report.ms} ms\n`,
  );
  for (const note of report.notes ?? []) process.stdout.write(`     ${note}\n`);
  // Each check as held or not, so a report says what was checked, not only what failed.
  for (const [check, { checks, failed }] of Object.entries(report.tally)) {
    process.stdout.write(
      `     ${failed === 0 ? 'held    ' : 'NOT held'} ${check.padEnd(22)} ${String(checks).padStart(6)} checks${failed > 0 ? `, ${failed} failed` : ''}\n`,
    );
  }
  for (const failure of report.failures.slice(0, 20)) {
    process.stdout.write(`     ✗ [${failure.check}] ${failure.target}: ${failure.message}\n       replay: ${failure.replay}\n`);
    if (failure.rerun) process.stdout.write(`       rerun:  ${failure.rerun}\n`);
  }
  if (report.failures.length > 20) process.stdout.write(`     … and ${report.failures.length - 20} more (see --junit)\n`);
}

export function printSummary(reports: PhaseReport[]): void {
  const checks = reports.reduce((sum, r) => sum + r.checks, 0);
  const failed = reports.reduce((sum, r) => sum + r.failures.length, 0);
  process.stdout.write(`conformance: ${checks - failed} passed, ${failed} failed\n`);
}

/** One line per dimension of the coverage report, and the few items it misses first. */
export function printCoverage(coverage: CoverageReport): void {
  process.stdout.write(`coverage: ${coverage.percent}% of what the specs document was exercised and checked\n`);
  for (const d of coverage.dimensions) {
    const missing =
      d.missing.length > 0 ? `; not reached: ${d.missing.slice(0, 6).join(', ')}${d.missing.length > 6 ? `, … ${d.missing.length - 6} more` : ''}` : '';
    process.stdout.write(`     ${d.name.padEnd(20)} ${String(d.exercised).padStart(4)} of ${String(d.documented).padEnd(4)}${missing}\n`);
  }
}
