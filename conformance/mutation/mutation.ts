// What a mutation is: the hooks the mutating proxy calls on what passes through it. Each hook
// returns undefined to leave what it was given alone, or what goes on in its place; the proxy
// counts every replacement, so a run can tell a mutation that never applied from one the runner
// did not notice.
import type { StompFrame } from './stompFrames.js';

/** An HTTP request as the proxy forwards it: the path with its query, lower-case header names, the whole body. */
export interface ProxyRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** An HTTP response as the proxy answers it. `content-length` is set from the body when it is written. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A frame the relay sends on, at once or after `delayMs` (frames after it are not held back). */
export type Outgoing = StompFrame | { frame: StompFrame; delayMs: number };

/** A client's SUBSCRIBE as the server got it, and whether its RECEIPT has passed. */
export interface SubscriptionSeen {
  destination: string;
  /** what it asked for: live messages only, or history first (`x-replay: all`, `x-since`) */
  asked: 'live' | 'all' | 'since';
  receipt: string | undefined;
  /** its RECEIPT went to the client: history that comes after it would be out of place */
  receipted: boolean;
}

/** One STOMP connection through the proxy, as a hook sees it. */
export interface StompLink {
  /** the connection's number within the proxy, from 1 */
  readonly number: number;
  /** the client's subscriptions by id */
  readonly subscriptions: ReadonlyMap<string, SubscriptionSeen>;
}

export interface Mutation {
  /** A request on its way to the server: a request replaces it, a response answers it without asking the server. */
  request?(request: ProxyRequest): ProxyRequest | ProxyResponse | undefined;
  /** The server's response to `request` (as the server got it). */
  response?(response: ProxyResponse, request: ProxyRequest): ProxyResponse | undefined;
  /** A frame the server sent, on its way to the client: the frames that go instead (none drops it). */
  toClient?(frame: StompFrame, link: StompLink): Outgoing[] | undefined;
  /** A frame the client sent, on its way to the server. */
  toServer?(frame: StompFrame, link: StompLink): Outgoing[] | undefined;
}

/** Sends `frame` after `delayMs`. */
export const later = (frame: StompFrame, delayMs: number): Outgoing => ({ frame, delayMs });
