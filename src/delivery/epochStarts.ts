// How each append of this instance would begin an epoch, were one to begin with it (a new run, a
// log that has no epoch), and the order appends reach their logs in. An epoch begins at offset 1
// only when nothing before it is missing: the first message of a run, or of a log, by the one
// writer the log's start record (logStarts.ts) says is first. Any other epoch begins past 1, so a
// subscriber sees that its start is lost (asyncapi.yaml x-offset). The record is asked once per log
// and run on this instance; what it said is kept, for a bounded number of logs. The first append
// waits for it, and every append after it, to any log, waits its turn: the messages of a run go to
// two logs (a day, then its summary) and reach their subscribers in the order they were published.
import type { LogStarts, StartClaim } from './logStarts.js';
import { newEpoch } from './planLog.js';

/**
 * `fresh`: an epoch this append begins starts at offset 1. `afterLoss`: it starts past 1.
 * `restart`: an earlier append of this instance to the log failed (it may be missing), so this one
 * begins a new epoch past 1 even where none would begin, keeping the fencing state; `loss` names
 * that failure, so that appends sent before the first restart was answered, and restarted(), make
 * one new epoch for it, not one each. `superseded`: a newer run began in the log: the writer is fenced.
 */
export type EpochStart = { start: 'fresh' | 'afterLoss' | 'superseded' } | { start: 'restart'; loss: string };

type Begin = 'fresh' | 'afterLoss' | 'superseded';

export interface EpochStarts {
  /**
   * Calls `send` with this append's EpochStart, in the order of the calls (to any log): at once
   * when it is known here and nothing waits, else once the start record answered and the calls
   * before it were sent.
   * A `send` that throws (the append may be lost) makes the next append of the log a `restart`.
   */
  inOrder<T>(stream: string, run: number, send: (start: EpochStart) => Promise<T> | T): Promise<T>;
  /** Calls `send` after the calls before it were sent (an end of a run, which must not overtake its messages). */
  inTurn<T>(send: () => Promise<T> | T): Promise<T>;
  /** Whether `stream` ever had a message, by what this instance knows or else by the start record. */
  began(stream: string): Promise<boolean>;
  /** the logs an append to which failed here, each with its failure, until an append restarted it */
  lost(): Array<{ stream: string; loss: string }>;
  /** Says that `stream` has been given a new epoch for `loss` another way. */
  restarted(stream: string, loss: string): void;
}

interface Known {
  /** the newest run (0: none) this instance asked about for the log */
  run: number;
  /** what the record said for it; null while asking */
  claim: Promise<Begin>;
  settled: Begin | null;
}

/** Logs whose start this instance remembers; an older one is asked about again (the answer is the same). */
const REMEMBERED_LOGS = 10_000;
/** How long one question to the start record may take before it counts as unanswered. */
const RECORD_TIMEOUT_MS = 2000;
/**
 * How long a claim is asked again (a reset connection, a database paused for a few seconds) before
 * the append that waits for it, and those behind it, are given up as failed, so a database that
 * stopped answering does not hold every message of the instance for long: the log then begins a
 * new epoch past offset 1 (a restart). Waiting is better than that loss while it is short: a
 * generation's own writes ride out such an outage too.
 */
const CLAIM_PATIENCE_MS = 20_000;
const CLAIM_RETRY_DELAYS_MS = [100, 250, 500, 1000, 2000];

function bounded<T>(answer: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the plan log start record did not answer ${what} within ${RECORD_TIMEOUT_MS} ms`)), RECORD_TIMEOUT_MS);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * Claims the start again until the record answers or CLAIM_PATIENCE_MS passed. A claim that was
 * written but whose answer was lost is answered `began` when asked again: the epoch then begins
 * past offset 1, a loss shown that did not happen rather than one hidden.
 */
async function claimPatiently(starts: LogStarts, stream: string, run: number): Promise<StartClaim> {
  const giveUpAt = Date.now() + CLAIM_PATIENCE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await bounded(starts.claim(stream, run), `for ${stream}`);
    } catch (error) {
      const delay = CLAIM_RETRY_DELAYS_MS[Math.min(attempt, CLAIM_RETRY_DELAYS_MS.length - 1)]!;
      if (Date.now() + delay >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** What an EpochStarts remembers (createEpochStarts). */
interface EpochState {
  starts: LogStarts;
  known: Map<string, Known>;
  /** sent once the last call that had to wait is sent; undefined when none waits */
  turn: Promise<void> | undefined;
  /** log → its failure not yet restarted */
  lostSome: Map<string, string>;
}

export function createEpochStarts(starts: LogStarts): EpochStarts {
  const state: EpochState = { starts, known: new Map(), turn: undefined, lostSome: new Map() };
  return {
    inOrder(stream, run, send) {
      return queued(
        state,
        startOf(state, stream, run),
        (begin) => sendWith(state, stream, begin, send),
        () => lose(state, stream),
      );
    },
    inTurn(send) {
      return queued(
        state,
        undefined,
        async () => send(),
        () => {},
      );
    },
    async began(stream) {
      return state.known.has(stream) || state.lostSome.has(stream) || (await bounded(starts.began(stream), `for ${stream}`));
    },
    lost: () => [...state.lostSome].map(([stream, loss]) => ({ stream, loss })),
    restarted(stream, loss) {
      if (state.lostSome.get(stream) === loss) state.lostSome.delete(stream);
    },
  };
}

function lose(state: EpochState, stream: string): void {
  state.lostSome.set(stream, newEpoch());
}

function remember(state: EpochState, stream: string, entry: Known): void {
  state.known.delete(stream);
  state.known.set(stream, entry);
  if (state.known.size > REMEMBERED_LOGS) state.known.delete(state.known.keys().next().value!);
}

/** What an epoch this writer begins would be: only the record's first answer for a run is `fresh`. */
function startOf(state: EpochState, stream: string, run: number): Begin | Promise<Begin> {
  const entry = state.known.get(stream);
  if (entry && (run === 0 || entry.run === run)) {
    if (entry.settled === 'superseded' && run !== 0) return 'superseded';
    return entry.settled !== null
      ? 'afterLoss'
      : entry.claim.then(
          (start) => (start === 'superseded' && run !== 0 ? 'superseded' : 'afterLoss'),
          // The append that asked is lost (and restarts the log): this one goes on after it.
          () => 'afterLoss' as const,
        );
  }
  if (entry && entry.run > run) return 'superseded';
  const fresh: Known = {
    run,
    settled: null,
    claim: claimPatiently(state.starts, stream, run).then((claim) => (claim === 'first' ? 'fresh' : claim === 'began' ? 'afterLoss' : 'superseded')),
  };
  fresh.claim.then(
    (start) => (fresh.settled = start),
    // The append that waited is lost: an epoch this writer begins later must not start at
    // offset 1 as if nothing of it were missing. (Were it superseded meanwhile, the log fences it.)
    () => (fresh.settled = 'afterLoss'),
  );
  remember(state, stream, fresh);
  return fresh.claim;
}

async function sendWith<T>(state: EpochState, stream: string, begin: Begin, send: (start: EpochStart) => Promise<T> | T): Promise<T> {
  const loss = state.lostSome.get(stream);
  try {
    const result = await send(loss !== undefined && begin !== 'superseded' ? { start: 'restart', loss } : { start: begin });
    if (loss !== undefined && state.lostSome.get(stream) === loss) state.lostSome.delete(stream);
    return result;
  } catch (error) {
    lose(state, stream);
    throw error;
  }
}

/**
 * Calls `send` with `known` once it is known and the calls before it were sent: at once when
 * nothing waits. The next call waits until this one is sent, not answered: ioredis keeps the order
 * of what it sends.
 */
function queued<K, T>(state: EpochState, known: K | Promise<K>, send: (known: K) => Promise<T>, failed: () => void): Promise<T> {
  const before = state.turn;
  if (before === undefined && !(known instanceof Promise)) return send(known);
  let sent!: () => void;
  const mine = new Promise<void>((resolve) => (sent = resolve));
  state.turn = mine;
  const done = () => {
    sent();
    if (state.turn === mine) state.turn = undefined;
  };
  return Promise.all([before, known]).then(
    ([, value]) => {
      const result = send(value);
      done();
      return result;
    },
    (error: unknown) => {
      failed();
      done();
      throw error;
    },
  );
}
