// One subscriber of a plan's three channels, as a careful client would be: it subscribes with a
// receipt each (plainly, with `x-replay: all`, or with `x-since`), records every MESSAGE with its
// `x-epoch`/`x-offset`, and when its connection ends unasked (an instance was killed) it connects to
// another instance and resumes with `x-since` from the last message it saw of each log. The soak
// then asks it what it saw: messages and days missing, duplicated or out of order, and whether each
// RECEIPT's `x-recovered: true` was true.
import type { Client, IMessage } from '@stomp/stompjs';
import { createStompClient } from '../../conformance/index.js';
import { channelAddress, type ChannelPayloads } from '../../generated/asyncapi.js';

/** A plan's schedule and errors channels share one log; its chat room has its own. */
export type LogName = 'plan' | 'chat';
type Channel = 'scheduleUpdates' | 'errors' | 'chatStream';
const LOG_OF: Record<Channel, LogName> = { scheduleUpdates: 'plan', errors: 'plan', chatStream: 'chat' };

export interface Received {
  channel: Channel;
  epoch: string;
  offset: number;
  payload: ChannelPayloads[Channel];
  /** Date.now() when it arrived */
  at: number;
}

/** How a subscription began: what its RECEIPT must then vouch for when it says x-recovered: true. */
type Start = { mode: 'plain' } | { mode: 'all' } | { mode: 'since'; epoch: string; offset: number };

interface Subscribed {
  log: LogName;
  start: Start;
  recovered: string | null;
  /** index into the log's received messages where this subscription's first message is (or will be) */
  firstIndex: number;
  /** how many messages of the log had arrived when its RECEIPT did: those from firstIndex on before it are its history */
  receiptIndex: number | null;
  /** Date.now() when it was sent, and the instance it went to */
  at: number;
  baseUrl: string;
}

export type WatcherKind = 'live' | 'late replay' | 'resumed';

export interface StreamWatcher {
  readonly kind: WatcherKind;
  /** the messages of each log in arrival order */
  readonly logs: Record<LogName, Received[]>;
  readonly subscriptions: Subscribed[];
  /** the ERROR frames that ended a connection it had (their error-code, and when) */
  readonly errors: { code: string; at: number }[];
  /** connections it had to make again because the server side went away */
  reconnects: number;
  /** the run's last message arrived (COMPLETED or CANCELLED on the chat, or anything on the errors channel) */
  finished(): boolean;
  /** resolves when the run's last message arrived */
  readonly done: Promise<void>;
  /** leaves on purpose and comes back through `nextBaseUrl()` with x-since (the resumed subscriber) */
  leaveAndResume(): Promise<void>;
  /** sends a chat message with a receipt on its current connection */
  sendChat(chatRoomId: number, content: string): Promise<void>;
  close(): Promise<void>;
}

export interface WatcherOptions {
  kind: WatcherKind;
  token: () => string;
  tripPlanId: number;
  chatRoomId: number;
  /** where it connects, first and after each loss: the soak hands out another running instance */
  nextBaseUrl: () => string;
  initial: 'plain' | 'all';
  /** gives up reconnecting after this */
  deadlineMs: number;
}

const wsUrlOf = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/ws-stomp`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startStreamWatcher(options: WatcherOptions): Promise<StreamWatcher> {
  const logs: Record<LogName, Received[]> = { plan: [], chat: [] };
  const subscriptions: Subscribed[] = [];
  const errors: { code: string; at: number }[] = [];
  let client: Client | null = null;
  let leaving = false;
  let closed = false;
  let finished = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let receiptCounter = 0;

  const lastOf = (log: LogName) => logs[log].at(-1);

  function onMessage(channel: Channel, message: IMessage): void {
    const payload = JSON.parse(message.body) as ChannelPayloads[Channel];
    logs[LOG_OF[channel]].push({ channel, epoch: message.headers['x-epoch'] ?? '', offset: Number(message.headers['x-offset']), payload, at: Date.now() });
    const chat = channel === 'chatStream' ? (payload as ChannelPayloads['chatStream']) : null;
    if (channel === 'errors' || chat?.messageStreamType === 'COMPLETED' || chat?.messageStreamType === 'CANCELLED') {
      finished = true;
      resolveDone();
    }
  }

  /** Connects and subscribes to the three channels, each from where its log left off. */
  async function connect(first: boolean): Promise<void> {
    const baseUrl = options.nextBaseUrl();
    const next = createStompClient(wsUrlOf(baseUrl), { token: options.token(), heartbeatMs: 0 });
    const connected = new Promise<void>((resolve, reject) => {
      next.onConnect = () => resolve();
      next.onWebSocketClose = () => reject(new Error(`connection to ${baseUrl} closed before CONNECTED`));
      next.onStompError = (frame) => reject(new Error(`ERROR ${frame.headers['error-code'] ?? ''} from ${baseUrl}`));
    });
    next.activate();
    await connected;
    client = next;
    next.onStompError = (frame) => errors.push({ code: frame.headers['error-code'] ?? '', at: Date.now() });
    next.onWebSocketClose = () => {
      if (client === next) client = null;
      if (!leaving && !closed && !finished) void reconnect();
    };
    const channels: [Channel, Record<string, number>][] = [
      ['scheduleUpdates', { tripPlanId: options.tripPlanId }],
      ['errors', { chatRoomId: options.chatRoomId }],
      ['chatStream', { chatRoomId: options.chatRoomId }],
    ];
    await Promise.all(
      channels.map(([channel, parameters]) => {
        const log = LOG_OF[channel];
        const last = lastOf(log);
        const start: Start = last
          ? { mode: 'since', epoch: last.epoch, offset: last.offset }
          : first && options.initial === 'plain'
            ? { mode: 'plain' }
            : { mode: 'all' };
        const headers: Record<string, string> = { id: `${channel}-${++receiptCounter}`, receipt: `r-${receiptCounter}` };
        if (start.mode === 'all') headers['x-replay'] = 'all';
        if (start.mode === 'since') headers['x-since'] = `${start.epoch}:${start.offset}`;
        const subscribed: Subscribed = { log, start, recovered: null, firstIndex: logs[log].length, receiptIndex: null, at: Date.now(), baseUrl };
        subscriptions.push(subscribed);
        return new Promise<void>((resolve, reject) => {
          next.watchForReceipt(headers.receipt!, (frame) => {
            subscribed.recovered = frame.headers['x-recovered'] ?? null;
            subscribed.receiptIndex = logs[log].length;
            resolve();
          });
          const address = channelAddress(channel, parameters as never);
          next.subscribe(address, (message) => onMessage(channel, message), headers);
          setTimeout(() => reject(new Error(`no RECEIPT for ${address} from ${baseUrl}`)), 15_000).unref();
        });
      }),
    );
  }

  let reconnecting: Promise<void> | null = null;
  const watcher: StreamWatcher = {
    kind: options.kind,
    logs,
    subscriptions,
    errors,
    reconnects: 0,
    finished: () => finished,
    done,
    async leaveAndResume() {
      leaving = true;
      const current = client;
      client = null;
      await current?.deactivate();
      leaving = false;
      await reconnect();
    },
    async sendChat(chatRoomId, content) {
      const current = client;
      if (!current) throw new Error('not connected');
      const receipt = `send-${++receiptCounter}`;
      await new Promise<void>((resolve, reject) => {
        current.watchForReceipt(receipt, () => resolve());
        current.publish({
          destination: channelAddress('chatMessages', { chatRoomId }),
          body: JSON.stringify({ content }),
          headers: { receipt, 'content-type': 'application/json' },
        });
        setTimeout(() => reject(new Error('no RECEIPT for the chat SEND')), 15_000).unref();
      });
    },
    async close() {
      closed = true;
      resolveDone();
      await client?.deactivate();
      client = null;
    },
  };

  function reconnect(): Promise<void> {
    reconnecting ??= (async () => {
      const deadline = Date.now() + options.deadlineMs;
      while (!closed && !finished && Date.now() < deadline) {
        try {
          watcher.reconnects++;
          await connect(false);
          return;
        } catch {
          await client?.deactivate();
          client = null;
          await sleep(250);
        }
      }
    })().finally(() => (reconnecting = null));
    return reconnecting;
  }

  await connect(true);
  return watcher;
}
