// The settings of the generation jobs on the plan row (docs/design/scale-out.md, "Generation jobs on the plan row"):
// the design's defaults, the small values tests use for quick takeovers, and a clear refusal of a
// heartbeat that cannot keep a lease.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

describe('generation job settings', () => {
  it('default to a 30 s lease renewed every 10 s, a sweep every 5 s, a poll every second, takeover fail, 2 attempts', () => {
    const config = loadConfig({});
    expect(config.generationConcurrency).toBe(4);
    expect(config.generationJobs).toEqual({ leaseMs: 30_000, heartbeatMs: 10_000, sweepMs: 5000, pollMs: 1000, takeover: 'fail', maxAttempts: 2 });
  });

  it('accept small values (tests take over in seconds) and GENERATION_CONCURRENCY=0 (an instance that only sweeps)', () => {
    const config = loadConfig({
      GENERATION_CONCURRENCY: '0',
      GENERATION_LEASE_MS: '2000',
      GENERATION_HEARTBEAT_MS: '400',
      GENERATION_SWEEP_MS: '250',
      GENERATION_POLL_MS: '100',
      GENERATION_TAKEOVER: 'resume',
      GENERATION_MAX_ATTEMPTS: '3',
    });
    expect(config.generationConcurrency).toBe(0);
    expect(config.generationJobs).toEqual({ leaseMs: 2000, heartbeatMs: 400, sweepMs: 250, pollMs: 100, takeover: 'resume', maxAttempts: 3 });
  });

  it.each([
    [
      { GENERATION_HEARTBEAT_MS: '30000' },
      /GENERATION_HEARTBEAT_MS=30000 is not accepted with GENERATION_LEASE_MS=30000; expected a heartbeat shorter than the lease/,
    ],
    [{ GENERATION_LEASE_MS: '2000', GENERATION_HEARTBEAT_MS: '5000' }, /GENERATION_HEARTBEAT_MS=5000 is not accepted with GENERATION_LEASE_MS=2000/],
    [{ GENERATION_TAKEOVER: 'retry' }, /GENERATION_TAKEOVER="retry" is not accepted; expected fail, resume/],
    [{ GENERATION_MAX_ATTEMPTS: '0' }, /GENERATION_MAX_ATTEMPTS="0" is not accepted; expected an integer from 1 to 100/],
    [{ GENERATION_CONCURRENCY: '-1' }, /GENERATION_CONCURRENCY="-1" is not accepted; expected an integer from 0 to 1000/],
    [{ GENERATION_LEASE_MS: '10' }, /GENERATION_LEASE_MS="10" is not accepted; expected an integer from 100/],
    [{ GENERATION_SWEEP_MS: '' }, /GENERATION_SWEEP_MS is set but empty/],
  ])('refuses %o with a message naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
