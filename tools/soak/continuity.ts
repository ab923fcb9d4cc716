// What one subscriber saw, judged by asyncapi.yaml's replay rules: within an epoch offsets grow by
// one; a RECEIPT with `x-recovered: true` vouches that the history asked for was delivered whole;
// anything lost must be visible (`x-recovered: false`, a new epoch, an epoch whose first message is
// not offset 1 for a subscriber that was there from its start, an ERROR WS110) so that the client
// reads the saved state over HTTP. A day that never arrived with none of those signals is a silent loss.
import type { ChannelPayloads } from '../../generated/asyncapi.js';
import type { LogName, Received, StreamWatcher } from './streamWatcher.js';

/** A watcher's subscriptions and messages in one line each, for a report. */
export function traceOf(watcher: StreamWatcher): string[] {
  const time = (at: number) => new Date(at).toISOString().slice(11, 23);
  const subscriptions = watcher.subscriptions.map(
    (s) =>
      `${s.log}@${s.firstIndex} ${time(s.at)} ${s.baseUrl.slice(-5)} ${s.start.mode === 'since' ? `since ${s.start.epoch}:${s.start.offset}` : s.start.mode} -> ${s.recovered ?? '-'}`,
  );
  const messages = (['plan', 'chat'] as LogName[]).map(
    (log) =>
      `${log}: ` +
      watcher.logs[log]
        .map((m) => {
          const payload = m.payload as {
            type?: string;
            messageStreamType?: string;
            code?: string;
            dailyPlan?: { dayNumber: number } | null;
            isComplete?: boolean;
          };
          const what = payload.type ?? payload.code ?? `${payload.messageStreamType ?? ''}${payload.isComplete ? '!' : ''}`;
          return `${key(m)}=${what}${payload.dailyPlan ? payload.dailyPlan.dayNumber : ''}@${time(m.at)}`;
        })
        .join(' '),
  );
  const errors = watcher.errors.map((e) => `${e.code}@${time(e.at)}`);
  return [`subscriptions: ${subscriptions.join('; ')}`, `errors: ${errors.join(' ')}`, ...messages];
}

export interface Continuity {
  /** messages skipped inside an epoch, plus saved days never announced without any signal */
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /** x-recovered: true on a RECEIPT whose history was not delivered whole */
  falseRecovered: number;
  /** visible continuity signals (new epochs, x-recovered: false, an epoch joined after its start, ERROR WS110) */
  signals: number;
  /** what was wrong, one line each (for the soak's report) */
  notes: string[];
}

const key = (m: Received) => `${m.epoch}:${m.offset}`;

function dayOf(message: Received): number | null {
  if (message.channel !== 'scheduleUpdates') return null;
  const payload = message.payload as ChannelPayloads['scheduleUpdates'];
  return payload.type === 'DAILY_PLAN_GENERATED' && payload.dailyPlan ? payload.dailyPlan.dayNumber : null;
}

/**
 * `told`: indexes of messages that are the first of a subscription answered `x-recovered: false`:
 * the client was told that what came before them may be missing, so a gap there is not silent.
 */
function judgeLog(log: LogName, messages: Received[], told: ReadonlySet<number>): Omit<Continuity, 'falseRecovered'> {
  const seen = new Set<string>();
  const result = { lost: 0, duplicated: 0, outOfOrder: 0, signals: 0, notes: [] as string[] };
  let previous: Received | undefined;
  for (const [index, message] of messages.entries()) {
    if (seen.has(key(message))) {
      result.duplicated++;
      result.notes.push(`${log} log: ${key(message)} delivered twice`);
      continue;
    }
    seen.add(key(message));
    if (previous && previous.epoch === message.epoch) {
      if (message.offset > previous.offset + 1 && told.has(index)) result.signals++;
      else if (message.offset > previous.offset + 1) {
        result.lost += message.offset - previous.offset - 1;
        result.notes.push(`${log} log: ${key(previous)} then ${key(message)} (a gap in one epoch)`);
      }
      if (message.offset < previous.offset) {
        result.outOfOrder++;
        result.notes.push(`${log} log: ${key(previous)} then ${key(message)} (backwards)`);
      }
    } else if (previous) {
      result.signals++;
    }
    previous = message;
  }
  return result;
}

/** `savedDays`: the day numbers the plan has over HTTP once the soak is over. */
export function judgeWatcher(watcher: StreamWatcher, savedDays: readonly number[]): Continuity {
  const result: Continuity = { lost: 0, duplicated: 0, outOfOrder: 0, falseRecovered: 0, signals: 0, notes: [] };
  for (const log of ['plan', 'chat'] as LogName[]) {
    const told = new Set(watcher.subscriptions.filter((s) => s.log === log && s.recovered === 'false').map((s) => s.firstIndex));
    const judged = judgeLog(log, watcher.logs[log], told);
    result.lost += judged.lost;
    result.duplicated += judged.duplicated;
    result.outOfOrder += judged.outOfOrder;
    result.signals += judged.signals;
    result.notes.push(...judged.notes);
  }
  result.signals += watcher.errors.filter((e) => e.code === 'WS110').length;
  for (const subscription of watcher.subscriptions) {
    if (subscription.recovered === 'false') result.signals++;
    const first = watcher.logs[subscription.log][subscription.firstIndex];
    const { start } = subscription;
    // x-recovered: true vouches for the history (what arrived before the RECEIPT). A first message
    // after it that begins a new epoch is a live one: its epoch, and an offset past 1, show a loss
    // that happened after the RECEIPT, which the RECEIPT could not know of.
    const fromHistory = subscription.receiptIndex !== null && subscription.firstIndex < subscription.receiptIndex;
    // A subscriber there before the run (plain, first connection) or asking for all of it must see
    // offset 1 first; when it does not, the client can tell something is missing.
    if (first && (start.mode === 'plain' || start.mode === 'all') && first.offset !== 1) {
      if (start.mode === 'all' && subscription.recovered === 'true' && fromHistory) {
        result.falseRecovered++;
        result.notes.push(`${subscription.log} log: x-replay: all answered x-recovered: true, then ${key(first)} first`);
      } else result.signals++;
    }
    if (first && start.mode === 'since' && subscription.recovered === 'true') {
      const continues = first.epoch === start.epoch && first.offset === start.offset + 1;
      if (!continues && (fromHistory || first.epoch === start.epoch)) {
        result.falseRecovered++;
        result.notes.push(`${subscription.log} log: x-since ${start.epoch}:${start.offset} answered x-recovered: true, then ${key(first)} first`);
      } else if (!continues) result.signals++;
    }
  }
  const announced = new Map<number, string>();
  for (const message of watcher.logs.plan) {
    const day = dayOf(message);
    if (day === null) continue;
    const previous = announced.get(day);
    if (previous !== undefined && previous !== key(message)) {
      result.duplicated++;
      result.notes.push(`day ${day} announced twice: ${previous} and ${key(message)}`);
    }
    announced.set(day, key(message));
  }
  const missing = savedDays.filter((day) => !announced.has(day));
  if (missing.length > 0 && result.signals === 0) {
    result.lost += missing.length;
    result.notes.push(`days ${missing.join(', ')} never announced, and nothing said so`);
  }
  return result;
}
