// JUnit XML for CI: one test suite per phase, one test case per (check, target) pair; failures carry
// their messages and replay lines.
import type { CheckFailure, PhaseReport } from './checks.js';

// XML 1.0 allows no control characters but tab, line feed and carriage return.
const allowedInXml = (c: string) => c >= ' ' || c === '\t' || c === '\n' || c === '\r';

const xml = (text: string) =>
  [...text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)].filter(allowedInXml).join('');

export function toJunitXml(reports: PhaseReport[], passedCases: Map<string, Set<string>>): string {
  const suites = reports.map((report) => {
    const failuresByCase = new Map<string, CheckFailure[]>();
    for (const f of report.failures) {
      const key = `${f.check} ${f.target}`;
      failuresByCase.set(key, [...(failuresByCase.get(key) ?? []), f]);
    }
    const cases = new Set([...(passedCases.get(report.phase) ?? []), ...failuresByCase.keys()]);
    const body = [...cases]
      .sort()
      .map((key) => {
        const failures = failuresByCase.get(key);
        const failure = failures
          ? `<failure message="${xml(failures[0]!.message)}">${xml(failures.map((f) => `${f.message}\n  replay: ${f.replay}${f.rerun ? `\n  rerun: ${f.rerun}` : ''}`).join('\n'))}</failure>`
          : '';
        return `    <testcase classname="conformance.${report.phase}" name="${xml(key)}">${failure}</testcase>`;
      })
      .join('\n');
    return `  <testsuite name="${report.phase}" tests="${cases.size}" failures="${failuresByCase.size}" time="${(report.ms / 1000).toFixed(3)}">\n${body}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance">\n${suites.join('\n')}\n</testsuites>\n`;
}
