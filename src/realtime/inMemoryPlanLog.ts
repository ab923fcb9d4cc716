// The plan log of the embedded mode: per log, the last `historySize` messages of its current epoch
// in memory, dropped `historyTtlMs` after the log's last message. Appending delivers on this
// process's broker in the same call, so a message is in the history before any subscriber sees it
// and a subscription that reads the history and then takes live messages misses none. A restart
// forgets every log; the next message starts a new epoch, so `x-since` of before says not recovered.
import type { Broker } from './broker.js';
import { historyOf, newEpoch, type AppendOutcome, type LoggedMessage, type PlanLog } from './planLog.js';

interface StreamState {
  epoch: string;
  top: number;
  /** the run of the current epoch (0: none started yet), and the newest attempt that wrote in it */
  run: number;
  fence: number;
  /** runs up to this one are over: their writers are refused */
  closedThrough: number;
  messages: LoggedMessage[];
  lastAppendAt: number;
}

export interface InMemoryPlanLogOptions {
  broker: Broker;
  historySize: number;
  historyTtlMs: number;
  clock: () => number;
}

export function createInMemoryPlanLog({ broker, historySize, historyTtlMs, clock }: InMemoryPlanLogOptions): PlanLog & { streams(): number } {
  // Kept in order of last append, so the expired ones are at the front.
  const streams = new Map<string, StreamState>();

  function dropExpired(now: number): void {
    for (const [key, state] of streams) {
      if (now - state.lastAppendAt < historyTtlMs) return;
      streams.delete(key);
    }
  }

  function live(key: string, now: number): StreamState | undefined {
    const state = streams.get(key);
    if (state && now - state.lastAppendAt >= historyTtlMs) {
      streams.delete(key);
      return undefined;
    }
    return state;
  }

  function fresh(run: number, fence: number, closedThrough: number): StreamState {
    return { epoch: newEpoch(), top: 0, run, fence, closedThrough, messages: [], lastAppendAt: 0 };
  }

  return {
    append(key, entry, writer) {
      const now = clock();
      dropExpired(now);
      let state = live(key, now) ?? fresh(writer?.token.run ?? 0, writer?.token.attempt ?? 0, 0);
      if (writer) {
        const { run, attempt } = writer.token;
        if (run <= state.closedThrough) return Promise.resolve<AppendOutcome>({ appended: false, reason: 'closed' });
        if (run < state.run || (run === state.run && attempt < state.fence)) return Promise.resolve<AppendOutcome>({ appended: false, reason: 'fenced' });
        if (run > state.run) state = fresh(run, attempt, state.closedThrough);
        state.fence = attempt;
        if (writer.terminal) state.closedThrough = run;
      }
      const message: LoggedMessage = { ...entry, epoch: state.epoch, offset: ++state.top };
      state.messages.push(message);
      if (state.messages.length > historySize) state.messages.shift();
      state.lastAppendAt = now;
      streams.delete(key);
      streams.set(key, state);
      broker.publish(entry.memberId, entry.destination, entry.body, message);
      return Promise.resolve<AppendOutcome>({ appended: true, epoch: message.epoch, offset: message.offset });
    },
    closeRun(key, token) {
      const state = live(key, clock());
      if (state) state.closedThrough = Math.max(state.closedThrough, token.run);
      else streams.set(key, { ...fresh(0, 0, token.run), lastAppendAt: clock() });
      return Promise.resolve();
    },
    history(key, from) {
      return Promise.resolve(historyOf(live(key, clock()), from));
    },
    follow() {
      // Every message is appended in this process, and delivered by append itself.
      return Promise.resolve(() => {});
    },
    handedOver() {
      return Promise.resolve();
    },
    close() {
      streams.clear();
      return Promise.resolve();
    },
    streams: () => streams.size,
  };
}
