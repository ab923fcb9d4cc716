// The conformance runner's detection power: the mutation self-test against our app. Each operator
// plays one server bug through a mutating proxy in front of the app and the runner must notice.
// The run without any mutation must pass through the proxy; the share of operators caught must
// hold the floor; and every operator meant for a check the runner has is caught by that check.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allOperators } from '../../conformance/mutation/operators/index.js';
import { runMutationSelfTest } from '../../conformance/mutation/selfTest.js';
import { formatSelfTestReport } from '../../conformance/mutation/selfTestReport.js';
import { loadSpecIndex } from '../../conformance/runner/specIndex.js';
import { startTestServer } from '../support/testServer.js';

// All 63 operators are caught (before the checks of header values, the envelope's status,
// x-error-codes, 405 with Allow, X-Request-Id, paging and STOMP frame headers: 39, 61.9 %).
const SCORE_FLOOR = 95;

// The STOMP operators first: one that hides an answer waits out a timeout, the longest runs, and
// started first they overlap with the quick HTTP ones instead of ending the self-test alone.
const stompFirst = [...allOperators].sort((a, b) => Number(b.phases.includes('async')) - Number(a.phases.includes('async')));

const root = path.resolve(import.meta.dirname, '../..');
const spec = loadSpecIndex(path.join(root, 'specs/openapi.yaml'), path.join(root, 'specs/asyncapi.yaml'));

describe('the mutation self-test against our app', () => {
  it(`catches at least ${SCORE_FLOOR} % of the operators, each meant for a check the runner has by that check`, async () => {
    // Rate limiting on, so the RateLimit-* headers the header operators rewrite are there; the
    // app's check of its own responses off, as the proxy's mutations come after it anyway.
    const server = await startTestServer({ RESPONSE_VALIDATION: 'off', RATE_LIMIT_PER_MINUTE: '1000000' });
    try {
      const report = await runMutationSelfTest(spec, {
        baseUrl: server.url,
        wsUrl: `${server.url.replace(/^http/, 'ws')}/ws-stomp`,
        login: 'dev',
        seed: 1,
        maxExamples: 2,
        operators: stompFirst,
        // Eight runs share this process with the app: a request may wait its turn on a loaded machine.
        timeoutMs: 10_000,
        // A generation of the app takes about a second; a whole run of a STOMP operator, generation
        // included, took at most 3.4 s at a load of 13 on 2 cores. An operator that hides the end of
        // a generation or of a chat answer waits this long for each (the longest run, three waits).
        generationTimeoutMs: 6_000,
        // A run mostly waits (on sockets, on the generation's pace): eight at once keep two cores busy.
        concurrency: 8,
      });
      process.stdout.write(formatSelfTestReport(report, SCORE_FLOOR));
      expect(report.baseline.failures).toEqual([]);
      expect(report.operators.filter((r) => r.status === 'error').map((r) => `${r.operator.id}: ${r.reason}`)).toEqual([]);
      const missed = report.operators
        .filter((r) => !r.operator.meantFor.startsWith('planned:') && !r.failedChecks.includes(r.operator.meantFor))
        .map((r) => `${r.operator.id} (meant for ${r.operator.meantFor}): ${r.status === 'killed' ? `caught by ${r.failedChecks.join(', ')}` : r.reason}`);
      expect(missed).toEqual([]);
      expect(report.score).toBeGreaterThanOrEqual(SCORE_FLOOR);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
