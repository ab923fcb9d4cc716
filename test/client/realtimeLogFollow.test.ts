// What the client tells from positions alone (client/src/realtime/logFollow.ts), checked on its own:
// a gap only counts when every channel of the log is followed and no replay is still on its way; a
// new epoch past the first offset, or before the run's end, is a loss; offset 1 of a new run is not.
import { describe, expect, it } from 'vitest';
import { followMessage, gapOf, newLogFollow, type FollowView } from '../../client/src/realtime/logFollow.js';

const everything: FollowView = { complete: true, settled: true, seesRunEnds: true };
const at = (epoch: string, offset: number) => ({ epoch, offset });

describe('following one log by its positions', () => {
  it('takes consecutive offsets over the channels of the log as whole, and a skipped one as a gap', () => {
    const log = newLogFollow('tripPlan');
    expect([1, 2, 3].map((o) => followMessage(log, at('e1', o), everything))).toEqual([null, null, null]);
    expect(followMessage(log, at('e1', 5), everything)).toBe('offsetGap');
    expect(followMessage(log, at('e1', 6), everything)).toBeNull();
  });

  it('sees no gap when some channel of the log is not followed: the missing offset went there', () => {
    const log = newLogFollow('tripPlan');
    const scheduleOnly = { ...everything, complete: false };
    expect([1, 3, 4, 7].map((o) => followMessage(log, at('e1', o), scheduleOnly))).toEqual([null, null, null, null]);
  });

  it('waits for the replays of a reconnect: one channel after the other fills the log in, and only what stays missing is a gap', () => {
    const log = newLogFollow('tripPlan');
    followMessage(log, at('e1', 1), everything);
    const replaying = { ...everything, settled: false };
    // The schedule replays 3 and 5 before the errors channel replays 2; 4 never comes.
    expect([3, 5, 2].map((o) => followMessage(log, at('e1', o), replaying))).toEqual([null, null, null]);
    expect(gapOf(log)).toBe('offsetGap');
    expect(followMessage(log, at('e1', 6), everything)).toBeNull();
  });

  it('takes a new epoch at the first offset as a new run, and one past it as a loss', () => {
    const log = newLogFollow('chatRoom');
    followMessage(log, at('e1', 1), everything);
    expect(followMessage(log, at('e2', 1), everything)).toBeNull();
    expect(followMessage(log, at('e3', 4), everything)).toBe('newEpochPastFirstOffset');
  });

  it('takes a new epoch before the run ended as a loss, and after it as the next run', () => {
    const log = newLogFollow('chatRoom');
    followMessage(log, at('e1', 7), everything);
    // e2 begins a run (offset 1 after another epoch); the next epoch comes before its end.
    followMessage(log, at('e2', 1), everything);
    expect(followMessage(log, at('e3', 1), everything)).toBe('newEpochBeforeRunEnd');
    log.runOpen = false;
    expect(followMessage(log, at('e4', 1), everything)).toBeNull();
  });

  it('cannot judge a run it cannot see end: without every run-ending channel a new epoch at 1 is no loss', () => {
    const log = newLogFollow('tripPlan');
    followMessage(log, at('e1', 1), everything);
    followMessage(log, at('e2', 1), everything);
    expect(followMessage(log, at('e3', 1), { ...everything, seesRunEnds: false })).toBeNull();
  });

  it('expects a run it was told of to begin at the first offset, even as the first message it sees', () => {
    const log = newLogFollow('tripPlan');
    log.expectsRun = true;
    expect(followMessage(log, at('e1', 3), everything)).toBe('newEpochPastFirstOffset');
    const other = newLogFollow('tripPlan');
    other.expectsRun = true;
    expect(followMessage(other, at('e1', 1), everything)).toBeNull();
    expect(other.runOpen).toBe(true);
  });

  it('goes on from the first message after a loss was told, whatever its position', () => {
    const log = newLogFollow('chatRoom');
    followMessage(log, at('e1', 4), everything);
    log.told = true;
    expect(followMessage(log, at('e2', 9), everything)).toBeNull();
    expect(followMessage(log, at('e2', 10), everything)).toBeNull();
  });
});
