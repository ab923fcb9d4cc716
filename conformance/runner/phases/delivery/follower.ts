// A subscriber that follows a plan's logs over the instances of a deployment as a careful client
// does: it SUBSCRIBEs every destination of the plan (each waiting for its RECEIPT), and when it loses
// its connection (an ERROR frame, a close: an instance killed, a link cut) it connects to the next
// instance that answers and SUBSCRIBEs again with `x-since` the last position it saw of each log
// (`x-replay: all` when it saw nothing of one). Each connection is a segment; the judge
// (continuity.ts) reads the segments.
import { connectRecordingStomp, type ReceivedMessage, type RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import { defaultMaxBodyBytes } from '../../httpProbe.js';
import type { Instance, RunOptions } from '../../runContext.js';
import { positionOf, type PlanLog } from './planLogs.js';

export type Asked = { kind: 'live' } | { kind: 'all' } | { kind: 'since'; epoch: string; offset: number };

export interface Subscription {
  destination: string;
  log: string;
  asked: Asked;
  /** the RECEIPT's x-recovered (undefined for a live subscription, or when the RECEIPT did not come) */
  recovered: string | undefined;
  /** why the SUBSCRIBE got no RECEIPT, if the server refused it (an ERROR frame) or never answered */
  refused?: string;
  /** the connection was lost before the RECEIPT came (no ERROR frame): the next segment asks again */
  lostBeforeReceipt?: boolean;
  /** how many of the segment's messages had come when the RECEIPT did: the history it delivered is among them */
  historyUntil: number;
}

export interface Segment {
  instance: number;
  subscriptions: Subscription[];
  messages: ReceivedMessage[];
  /** open; left on purpose; or lost, and why */
  ended: { kind: 'open' } | { kind: 'left' } | { kind: 'lost'; why: string };
}

export interface Follower {
  name: string;
  segments: Segment[];
  /** true once it got a message that ends the run */
  sawRunEnd(): boolean;
  /** the messages of `log` it got so far, in every segment */
  countOf(log: string): number;
  /** Disconnects on purpose (a client going away for a while). */
  leave(): Promise<void>;
  /** Connects to `instance` and SUBSCRIBEs with x-since (after leave()). */
  rejoin(instance: number): Promise<void>;
  /** Resolves once it saw the run's end, or at `deadlineAt` (epoch ms). */
  untilRunEnd(deadlineAt: number): Promise<void>;
  stop(): Promise<void>;
}

export interface FollowerSetup {
  name: string;
  token: string;
  logs: PlanLog[];
  instances: Instance[];
  options: Pick<RunOptions, 'timeoutMs' | 'maxBodyBytes'>;
  /** what the first connection asks for: live (before the run starts) or the whole history (a late subscriber) */
  first: 'live' | 'all';
  /** whether a message ends its run (asyncapi.yaml, x-delivery) */
  endsRun: (m: ReceivedMessage) => boolean;
  /** the error-code of an ERROR frame that tells a loss (x-delivery's continuity.errorCode): the connection is lost, nothing refused */
  lossErrorCode: string;
}

/** How many frames of the size limit one connection may read in all. */
const FRAMES_PER_CONNECTION = 16;
/** The pause before a reconnect, so a dying instance is not hammered. */
const RECONNECT_PAUSE_MS = 200;

/** The last position seen of a log: the highest offset of the epoch of the log's newest message. */
function lastSeen(segments: readonly Segment[], log: PlanLog): { epoch: string; offset: number } | null {
  const mine = segments.flatMap((s) => s.messages).filter((m) => log.destinations.includes(m.destination));
  const newest = mine.length > 0 ? positionOf(mine[mine.length - 1]!, log) : null;
  if (!newest) return null;
  const offsets = mine
    .map((m) => positionOf(m, log))
    .filter((p) => p?.epoch === newest.epoch)
    .map((p) => p!.offset);
  return { epoch: newest.epoch, offset: Math.max(...offsets) };
}

export async function startFollower(setup: FollowerSetup, instance: number): Promise<Follower> {
  const segments: Segment[] = [];
  let client: RecordingStompClient | null = null;
  let stopped = false;
  let current = instance;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());

  const askFor = (log: PlanLog, isFirst: boolean): Asked => {
    if (isFirst) return { kind: setup.first };
    const seen = lastSeen(segments, log);
    return seen ? { kind: 'since', ...seen } : { kind: 'all' };
  };

  /** Connects to `index` and subscribes every destination; false when the instance did not take it. */
  async function attach(index: number): Promise<boolean> {
    const { timeoutMs, maxBodyBytes = defaultMaxBodyBytes } = setup.options;
    const isFirst = segments.length === 0;
    const connection = await connectRecordingStomp(setup.instances[index]!.wsUrl, setup.token, {
      connectTimeoutMs: timeoutMs,
      maxFrameBytes: maxBodyBytes,
      maxConnectionBytes: FRAMES_PER_CONNECTION * maxBodyBytes,
    }).catch(() => null);
    if (!connection?.connected) {
      await connection?.disconnect();
      return false;
    }
    const segment: Segment = { instance: index, subscriptions: [], messages: connection.messages, ended: { kind: 'open' } };
    segments.push(segment);
    client = connection;
    current = index;
    for (const log of setup.logs) {
      const asked = askFor(log, isFirst);
      for (const destination of log.destinations) {
        const subscription: Subscription = { destination, log: log.name, asked, recovered: undefined, historyUntil: 0 };
        segment.subscriptions.push(subscription);
        try {
          if (asked.kind === 'live') await connection.subscribe(destination, { timeoutMs });
          else {
            const replay = asked.kind === 'all' ? ({ 'x-replay': 'all' } as const) : { 'x-since': `${asked.epoch}:${asked.offset}` };
            subscription.recovered = (await connection.subscribeReplaying(destination, replay, { timeoutMs })).recovered;
          }
        } catch (error) {
          // A connection that dies under a SUBSCRIBE (an instance killed), or that the server ends
          // with the ERROR that tells a loss, is a lost segment, not a refusal: its close may be
          // noticed a moment after the SUBSCRIBE failed to go out.
          const closedNow = await Promise.race([connection.closed.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 1000, false))]);
          const toldLoss = connection.errors.every((frame) => frame.headers['error-code'] === setup.lossErrorCode);
          if (closedNow && toldLoss) subscription.lostBeforeReceipt = true;
          else subscription.refused = error instanceof Error ? error.message : String(error);
        }
        subscription.historyUntil = connection.messages.length;
      }
    }
    void connection.closed.then(() => onClosed(segment, connection));
    wake();
    return true;
  }

  /** The connection ended: unless on purpose, the segment was lost, and the follower goes on elsewhere. */
  function onClosed(segment: Segment, connection: RecordingStompClient) {
    if (segment.ended.kind === 'open') {
      const error = connection.errors[0];
      segment.ended = {
        kind: 'lost',
        why: error ? `ERROR ${error.headers['error-code'] ?? ''} ${error.headers.message ?? ''}`.trim() : 'the connection closed',
      };
    }
    if (client === connection) client = null;
    wake();
    if (segment.ended.kind === 'lost' && !stopped) void reconnect();
  }

  async function reconnect(): Promise<void> {
    for (let attempt = 1; !stopped && client === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_PAUSE_MS));
      if (stopped) return;
      if (await attach((current + attempt) % setup.instances.length)) return;
    }
  }

  const follower: Follower = {
    name: setup.name,
    segments,
    sawRunEnd: () => segments.some((s) => s.messages.some(setup.endsRun)),
    countOf: (log) => segments.flatMap((s) => s.messages).filter((m) => setup.logs.find((l) => l.name === log)?.destinations.includes(m.destination)).length,
    async leave() {
      const segment = segments[segments.length - 1];
      if (segment) segment.ended = { kind: 'left' };
      const connection = client;
      client = null;
      await connection?.disconnect();
    },
    async rejoin(index) {
      if (!(await attach(index))) void reconnect();
    },
    untilRunEnd(deadlineAt) {
      return new Promise((resolve) => {
        const check = () => {
          if (!follower.sawRunEnd() && Date.now() < deadlineAt) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(check, Math.max(0, deadlineAt - Date.now()));
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      const segment = segments[segments.length - 1];
      if (segment?.ended.kind === 'open') segment.ended = { kind: 'left' };
      await client?.disconnect();
      clearInterval(ticker);
    },
  };
  // Messages arrive without telling anyone: look at them often enough for the waits above.
  const ticker = setInterval(wake, 50);
  ticker.unref();
  if (!(await attach(instance))) void reconnect();
  return follower;
}
