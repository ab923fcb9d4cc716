// A request's logger is made only when the request logs something at an enabled level: at warn (the
// production level) an info line costs no child logger, and a warning still carries the request's
// bindings, made once however often the request logs.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from '../../src/kernel/lazyChildLogger.js';

function loggerAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const parent = pino({ level, base: null, timestamp: false }, out);
  return { parent, lines, childCalls: vi.spyOn(parent, 'child') };
}

describe('lazyChildLogger', () => {
  it('makes no child for lines its level drops', () => {
    const { parent, lines, childCalls } = loggerAt('warn');
    const log = lazyChildLogger(parent, () => ({ requestId: 'r-1' }));
    log.info({ status: 200 }, 'request');
    log.debug('details');
    expect([childCalls.mock.calls.length, lines]).toEqual([0, []]);
  });

  it('makes the child once, at the first line its level writes, with the bindings', async () => {
    const { parent, lines, childCalls } = loggerAt('warn');
    const bindings = vi.fn(() => ({ requestId: 'r-2' }));
    const log = lazyChildLogger(parent, bindings);
    log.warn('slow');
    log.error({ code: 'X' }, 'failed');
    log.info('dropped');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      { level: 40, requestId: 'r-2', msg: 'slow' },
      { level: 50, requestId: 'r-2', code: 'X', msg: 'failed' },
    ]);
    expect([childCalls.mock.calls.length, bindings.mock.calls.length]).toEqual([1, 1]);
  });

  it('is a whole logger: its own children and level checks carry the bindings', async () => {
    const { parent, lines } = loggerAt('info');
    const log = lazyChildLogger(parent, () => ({ requestId: 'r-3' }));
    expect(log.isLevelEnabled('info')).toBe(true);
    log.child({ tripPlanId: 7 }).info('started');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([{ level: 30, requestId: 'r-3', tripPlanId: 7, msg: 'started' }]);
  });
});
