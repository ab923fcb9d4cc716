// What the Redis plan log reads back from Redis: a live message of a log's channel, a stream entry,
// the reply of the append script (redisPlanLogScripts.ts writes all three).
import type { AppendOutcome, LoggedMessage } from './planLog.js';

export function appendOutcome(reply: unknown): AppendOutcome {
  if (!Array.isArray(reply)) throw new Error(`unexpected reply of the plan log script: ${JSON.stringify(reply)}`);
  const [appended, second, third] = reply as [number, string, number | undefined];
  if (appended === 1) return { appended: true, epoch: second, offset: Number(third) };
  if (second === 'fenced' || second === 'closed') return { appended: false, reason: second };
  throw new Error(`unexpected reply of the plan log script: ${JSON.stringify(reply)}`);
}

/** `<epoch>:<offset>:<member id>:<destination>` LF `<body>` (APPEND_SCRIPT's live message). */
export function parseLive(text: string): LoggedMessage | null {
  const newline = text.indexOf('\n');
  const [epoch, offset, memberId, destination] = text.slice(0, newline).split(':');
  if (newline < 0 || !epoch || !offset || !memberId || !destination) return null;
  return { epoch, offset: Number(offset), memberId: Number(memberId), destination, body: text.slice(newline + 1) };
}

/** When Redis appended a stream entry (field t, ms by Redis' clock); 0 for an entry without it. */
export function stampOf(fields: string[]): number {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 't') return Number(fields[i + 1]) || 0;
  return 0;
}

/** A stream entry: id `<offset>-0`, fields e, m, d, b (and t, stampOf). */
export function entryOf(id: string, fields: string[]): LoggedMessage | null {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i]!, fields[i + 1]!);
  const [epoch, memberId, destination, body] = ['e', 'm', 'd', 'b'].map((name) => values.get(name));
  if (epoch === undefined || memberId === undefined || destination === undefined || body === undefined) return null;
  return { epoch, offset: Number(id.split('-')[0]), memberId: Number(memberId), destination, body };
}

/** The messages of an XRANGE reply (an entry that is not one is left out). */
export function entriesOf(range: [string, string[]][]): LoggedMessage[] {
  return range.flatMap(([id, fields]) => entryOf(id, fields) ?? []);
}

/** The replies of a MULTI, each its value (an error in one of them is thrown). */
export function repliesOf(replies: [Error | null, unknown][] | null): unknown[] {
  return (replies ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
