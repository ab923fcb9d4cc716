// The room turns this instance takes and holds (chatTurns.ts says how a turn orders a room's
// messages across instances): a stored message wakes its room, the holder answers what waits
// (chatAnswers.ts) while a heartbeat renews the turn, and a sweep takes the rooms whose turn ran
// out while messages wait.
import { randomUUID } from 'node:crypto';
import { findChatRoom } from './chatRepository.js';
import { claimTurn, nextPendingMessage, releaseTurn, renewTurn, roomsWaitingForATurn, TurnLost } from './chatTurns.js';
import { answerOrFail, type AnswerDeps } from './chatAnswers.js';

/** The lease of a room's turn, as of a generation's (config.ts, GENERATION_LEASE_MS and the two after it). */
export interface TurnTimings {
  leaseMs: number;
  heartbeatMs: number;
  /** how often an instance looks for rooms whose turn ran out while messages wait */
  sweepMs: number;
}

export interface HeldTurns {
  readonly deps: AnswerDeps & { turns: TurnTimings };
  /** the rooms whose turn this instance is taking or holds, and those to look at again after it */
  readonly holding: Map<number, Promise<void>>;
  readonly again: Set<number>;
  stopped: boolean;
}

export function heldTurnsOf(deps: AnswerDeps & { turns: TurnTimings }): HeldTurns {
  return { deps, holding: new Map(), again: new Set(), stopped: false };
}

/** Takes the room's turn and answers its pending messages until none waits; returns when another holder has the turn. */
async function holdTurn(held: HeldTurns, chatRoomId: number): Promise<void> {
  const { db, clock, log, turns } = held.deps;
  for (;;) {
    const token = randomUUID();
    // Taken: its holder answers what waits (or, if it stopped, a sweep once its lease ran out).
    if (!(await claimTurn(db, chatRoomId, token, clock(), turns.leaseMs))) return;
    const heartbeat = setInterval(() => {
      renewTurn(db, chatRoomId, token, clock(), turns.leaseMs).catch((error: unknown) => log.warn({ err: error, chatRoomId }, 'chat turn not renewed'));
    }, turns.heartbeatMs);
    heartbeat.unref();
    try {
      // Gone with its plan: its messages went with it.
      const room = await findChatRoom(db, chatRoomId);
      if (!room) return;
      for (let message = await nextPendingMessage(db, chatRoomId); message; message = await nextPendingMessage(db, chatRoomId)) {
        await answerOrFail(held.deps, room, token, message);
      }
    } catch (error) {
      if (!(error instanceof TurnLost)) throw error;
      log.warn({ chatRoomId, reason: error.message }, 'chat turn lost');
      return;
    } finally {
      clearInterval(heartbeat);
      await releaseTurn(db, chatRoomId, token);
    }
    // A message stored while the turn was being given back found it taken: look once more.
    if (held.stopped || !(await nextPendingMessage(db, chatRoomId))) return;
  }
}

/** Takes the room's turn unless this instance already holds it (then it looks again once done). */
export function wake(held: HeldTurns, chatRoomId: number): void {
  const { holding, again } = held;
  if (held.stopped) return;
  if (holding.has(chatRoomId)) {
    again.add(chatRoomId);
    return;
  }
  const turn = holdTurn(held, chatRoomId)
    .catch((error: unknown) => held.deps.log.error({ err: error, chatRoomId }, 'chat turn failed'))
    .finally(() => {
      holding.delete(chatRoomId);
      if (again.delete(chatRoomId)) wake(held, chatRoomId);
    });
  holding.set(chatRoomId, turn);
}

/** Every TurnTimings.sweepMs: wakes the rooms whose turn ran out while messages wait. */
export function startTurnSweep(held: HeldTurns): NodeJS.Timeout {
  const { db, clock, log, turns } = held.deps;
  const sweep = setInterval(() => {
    roomsWaitingForATurn(db, clock())
      .then((rooms) => rooms.forEach((chatRoomId) => wake(held, chatRoomId)))
      .catch((error: unknown) => log.warn({ err: error }, 'chat turn sweep failed'));
  }, turns.sweepMs);
  sweep.unref();
  return sweep;
}

/** Resolves when this instance holds no room's turn. */
export async function idle(held: HeldTurns): Promise<void> {
  while (held.holding.size > 0) await Promise.allSettled([...held.holding.values()]);
}
