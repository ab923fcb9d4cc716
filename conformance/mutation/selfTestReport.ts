// The self-test's report: a line per operator (killed by which check, or why it survived, and the
// check meant to catch it), the baseline, the score against its floor; and the same as JSON.
import type { BaselineResult, OperatorResult, SelfTestReport } from './selfTest.js';

const oneLine = (text: string, characters: number) => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > characters ? `${flat.slice(0, characters - 1)}…` : flat;
};

export function baselineLine(baseline: BaselineResult): string {
  const phases = baseline.phases.join(',') || 'none';
  if (baseline.passed) return `baseline  passed through the proxy without mutation (phases ${phases}) in ${(baseline.ms / 1000).toFixed(1)} s`;
  const failures = baseline.failures.map((f) => `\n          ✗ [${f.check}] ${f.target}: ${oneLine(f.message, 200)}`).join('');
  return (
    `baseline  FAILED through the proxy without any mutation (phases ${phases}): no operator result counts. ` +
    `Run trip-conformance against the server itself: if it passes there, the proxy is broken${failures}`
  );
}

export function operatorLine(result: OperatorResult): string {
  const id = result.operator.id.padEnd(36);
  const seconds = `${(result.ms / 1000).toFixed(1)} s`.padStart(7);
  if (result.status === 'killed') {
    const failure = result.failure!;
    return `KILLED    ${id} ${seconds}  by ${failure.check} on ${failure.target}: ${oneLine(failure.message, 140)}`;
  }
  const status = result.status === 'survived' ? 'SURVIVED' : 'ERROR   ';
  return `${status}  ${id} ${seconds}  ${result.reason}; meant for: ${result.operator.meantFor}`;
}

/** The whole report as text, ending with the score and whether it holds `minScore`. */
export function formatSelfTestReport(report: SelfTestReport, minScore: number): string {
  const lines = [baselineLine(report.baseline), ...report.operators.map(operatorLine)];
  lines.push(
    `score     ${report.killed}/${report.total} operators killed: ${report.score}% (floor ${minScore}%)${report.score < minScore ? ' — BELOW the floor' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JSON: the baseline, each operator with its quote and verdict, the score. */
export function selfTestJson(report: SelfTestReport, minScore: number): string {
  return `${JSON.stringify(
    {
      score: report.score,
      minScore,
      killed: report.killed,
      total: report.total,
      operators: report.operators.map((r) => ({
        id: r.operator.id,
        description: r.operator.description,
        quote: r.operator.quote,
        meantFor: r.operator.meantFor,
        status: r.status,
        failure: r.failure,
        failedChecks: r.failedChecks,
        reason: r.reason,
        applied: r.applied,
        phases: r.phases,
        missingPhases: r.missingPhases,
        ms: r.ms,
      })),
      baseline: report.baseline,
    },
    null,
    2,
  )}\n`;
}
