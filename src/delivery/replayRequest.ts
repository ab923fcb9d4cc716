// What a SUBSCRIBE asks to be replayed (asyncapi.yaml StompSubscribeHeaders): `x-replay: all` or
// `x-since: <epoch>:<offset>`, the header values already decoded by the parser (STOMP 1.1/1.2 send
// the `:` as `\c`). Nothing asked → null: a plain live subscription, as before.
import type { ReplayFrom } from './planLog.js';

const SINCE = /^([A-Za-z0-9_-]{1,64}):(0|[1-9][0-9]{0,15})$/;

export function replayRequest(headers: Record<string, string>): ReplayFrom | null | { problem: string } {
  const replay = headers['x-replay'];
  const since = headers['x-since'];
  if (replay !== undefined && since !== undefined) return { problem: 'SUBSCRIBE may carry x-replay or x-since, not both.' };
  if (replay !== undefined) return replay === 'all' ? { all: true } : { problem: `x-replay must be all, not ${JSON.stringify(replay)}.` };
  if (since === undefined) return null;
  const match = SINCE.exec(since);
  const offset = Number(match?.[2]);
  if (!match || !Number.isSafeInteger(offset))
    return { problem: `x-since must be <epoch>:<offset> (an x-epoch and an x-offset received), not ${JSON.stringify(since)}.` };
  return { epoch: match[1]!, offset };
}
