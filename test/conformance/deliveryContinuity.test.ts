// The judge of the delivery phase (conformance/runner/phases/delivery/continuity.ts) on followers
// written out by hand: what a client may and may not be left with, with and without faults.
import { describe, expect, it } from 'vitest';
import { judgeConsistency, judgeFollower, missingRanges } from '../../conformance/runner/phases/delivery/continuity.js';
import type { Asked, Segment } from '../../conformance/runner/phases/delivery/follower.js';
import type { PlanLog } from '../../conformance/runner/phases/delivery/planLogs.js';
import type { ReceivedMessage } from '../../conformance/stomp/recordingStompClient.js';

const planLog: PlanLog = {
  name: 'plan',
  destinations: ['/user/sub/schedule/1', '/user/sub/errors/2'],
  position: { epochHeader: 'x-epoch', offsetHeader: 'x-offset' },
};
const schedule = planLog.destinations[0]!;
const errors = planLog.destinations[1]!;

const message = (destination: string, epoch: string, offset: number, raw = `{"n":${offset}}`): ReceivedMessage => ({
  destination,
  headers: { 'x-epoch': epoch, 'x-offset': String(offset) },
  body: JSON.parse(raw) as ReceivedMessage['body'],
  raw,
});
const at = (epoch: string, ...offsets: number[]) => offsets.map((offset) => message(schedule, epoch, offset));

function segment(
  messages: ReceivedMessage[],
  options: { asked?: Asked; recovered?: string; ended?: Segment['ended']; historyUntil?: number; instance?: number } = {},
): Segment {
  const asked = options.asked ?? { kind: 'live' };
  return {
    instance: options.instance ?? 0,
    subscriptions: planLog.destinations.map((destination) => ({
      destination,
      log: 'plan',
      asked,
      recovered: options.recovered,
      historyUntil: options.historyUntil ?? 0,
    })),
    messages,
    ended: options.ended ?? { kind: 'left' },
  };
}
const judge = (segments: Segment[], faults = false, reference = { epoch: 'e1', offset: 5 }) =>
  judgeFollower({ name: 'f', segments }, planLog, reference, faults).map((p) => `[${p.check}] ${p.message}`);

describe('the delivery judge', () => {
  it('takes every message once, in order, over both channels of a log', () => {
    expect(judge([segment([...at('e1', 1, 2), message(errors, 'e1', 3), ...at('e1', 4, 5)])])).toEqual([]);
  });

  it('takes a resumption whose history continues exactly where the follower left', () => {
    const resumed = segment(at('e1', 3, 4, 5), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'true', historyUntil: 2 });
    expect(judge([segment(at('e1', 1, 2)), resumed])).toEqual([]);
  });

  it('finds a message delivered twice across a resumption', () => {
    const resumed = segment(at('e1', 2, 3, 4, 5), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'true', historyUntil: 3 });
    expect(judge([segment(at('e1', 1, 2)), resumed])).toContainEqual(expect.stringMatching(/^\[delivery_once\] e1:2 came twice/));
  });

  it('finds a destination whose offsets go backwards', () => {
    expect(judge([segment(at('e1', 1, 3, 2, 4, 5))])).toContainEqual(expect.stringMatching(/^\[delivery_once\] segment 0: .* got e1:2 after e1:3/));
  });

  it('finds a RECEIPT x-recovered: true whose history has a hole, with faults or without', () => {
    const resumed = segment(at('e1', 4, 5), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'true', historyUntil: 2 });
    for (const faults of [false, true]) {
      expect(judge([segment(at('e1', 1, 2), { ended: { kind: 'lost', why: 'closed' } }), resumed], faults)).toContainEqual(
        expect.stringMatching(/^\[delivery_recovered\] segment 1: RECEIPT x-recovered: true for x-since e1:2, but the history lacks offsets 3 of e1/),
      );
    }
  });

  it('takes a told loss under faults (a lost connection, then x-recovered: false), and refuses it without', () => {
    const segments = [
      segment(at('e1', 1, 2), { ended: { kind: 'lost', why: 'ERROR WS110' } }),
      segment(at('e2', 1, 2), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'false' }),
    ];
    expect(judge(segments, true, { epoch: 'e2', offset: 2 })).toEqual([]);
    expect(judge(segments, false, { epoch: 'e2', offset: 2 })).toContainEqual(expect.stringMatching(/^\[delivery_recovered\] .*though no fault was injected/));
  });

  it('takes a connection lost under its SUBSCRIBEs as a lost segment, and a refused SUBSCRIBE as a gap', () => {
    const dying = segment(at('e1', 1, 2), { ended: { kind: 'lost', why: 'the connection closed' } });
    const resumed = segment(at('e1', 3, 4, 5), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'true', historyUntil: 3 });
    const lostUnder = { ...resumed, subscriptions: resumed.subscriptions.map((s) => ({ ...s, recovered: undefined, lostBeforeReceipt: true })), messages: [] };
    expect(judge([dying, { ...lostUnder, ended: { kind: 'lost', why: 'the connection closed' } }, resumed], true)).toEqual([]);
    const refused = {
      ...lostUnder,
      subscriptions: lostUnder.subscriptions.map((s) => ({ ...s, lostBeforeReceipt: undefined, refused: 'refused before the RECEIPT: WS004' })),
    };
    expect(judge([dying, { ...refused, ended: { kind: 'lost', why: 'ERROR WS004' } }, resumed], true)).toContainEqual(
      expect.stringMatching(/^\[delivery_gap\] segment 1: SUBSCRIBE .* got no RECEIPT \(refused before the RECEIPT: WS004\)/),
    );
  });

  it('finds a silent gap: offsets missing without faults', () => {
    expect(judge([segment(at('e1', 1, 2, 4, 5))])).toContainEqual(
      expect.stringMatching(/^\[delivery_gap\] segment 0: offsets 3 of e1 never came, though no fault was injected/),
    );
  });

  it('finds a silent tail: an open connection that told nothing and stopped short of the last message', () => {
    expect(judge([segment(at('e1', 1, 2, 3))], true)).toContainEqual(expect.stringMatching(/^\[delivery_gap\] offsets 4-5 of e1 never came, and nothing told/));
    expect(
      judge(
        [
          segment(at('e1', 1, 2), { ended: { kind: 'lost', why: 'closed' } }),
          segment(at('e1', 3), { asked: { kind: 'since', epoch: 'e1', offset: 2 }, recovered: 'true', historyUntil: 1 }),
        ],
        true,
      ),
    ).toContainEqual(expect.stringMatching(/^\[delivery_gap\] its last connection stayed open and told it nothing, yet it never got e1:5/));
  });

  it('finds one position carrying two different messages on two instances', () => {
    const a = { name: 'a', segments: [segment([message(schedule, 'e1', 1, '{"day":1}')], { instance: 0 })] };
    const b = { name: 'b', segments: [segment([message(schedule, 'e1', 1, '{"day":2}')], { instance: 1 })] };
    expect(judgeConsistency([a, b], planLog).map((p) => p.message)).toEqual([
      expect.stringMatching(/^e1:1 is .*"day":1.* for a \(instance 1\), but .*"day":2.* for b \(instance 2\)/),
    ]);
  });

  it('names missing offsets as ranges', () => {
    expect(missingRanges(new Set([1, 2, 5, 9]), 1, 10)).toEqual(['3-4', '6-8', '10']);
  });
});
