// How many connections the HTTP server holds (HTTP and WebSocket alike: an upgraded socket stays
// the same connection), in all and per client address, and what a connection beyond them gets
// (openapi.yaml, Conventions; docs/limits.md). Every connection is an open file: without a cap,
// idle or slow sockets pile up until accept() fails and nothing is answered, /healthz neither.
//
// A connection beyond a cap is still read, so that its request gets a documented answer (429
// COMMON429 for its address, 503 COMMON503 for the instance, then closed) and so that /healthz,
// /readyz and /metrics keep answering; those answers are themselves bounded (REFUSAL_RESERVE, and
// per address, so one address cannot take them all), and a connection beyond them is closed unread.
//
// Behind trusted proxies (TRUST_PROXY_HOPS) every socket comes from a proxy, whose pooled
// connections carry many clients' requests: they are not counted per address (the rate limit
// counts those requests). A WebSocket is one client's, so it is counted by the address the proxy
// forwarded, when it is upgraded (holdWebSocket).
import type { Socket } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../kernel/appError.js';
import type { HttpEnv } from './httpEnv.js';

/** Why a connection was taken beyond a cap: its address holds too many, or the instance does. */
export type Refusal = 'address' | 'total';

/** Connections beyond the caps that are read to answer them, at once: in all, and from one address. */
export const REFUSAL_RESERVE = 64;
export const REFUSAL_RESERVE_PER_ADDRESS = 8;
/** A connection beyond the caps sends its request within this, or is closed. */
export const REFUSAL_READ_MS = 2000;
/** What a refused request is told to wait: other connections close within seconds (keep-alive, timeouts). */
const RETRY_AFTER_SECONDS = 5;
/** Answered on a connection beyond the caps too (GET only): the probes of whoever runs the instance. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export interface ConnectionLimitSettings {
  maxTotal: number;
  maxPerAddress: number;
  /** TRUST_PROXY_HOPS > 0: sockets come from proxies and are not counted per address */
  behindProxies: boolean;
  /** told of each connection opened and closed within the caps (metrics) */
  onOpen?: () => void;
  onClose?: () => void;
  /** told of each connection refused */
  onRefused?: (refusal: Refusal) => void;
}

export interface ConnectionGate {
  /** the HTTP server's 'connection' listener */
  admit(socket: Socket): void;
  /** why `socket` was taken beyond a cap; undefined for a connection within them (or no socket) */
  refusalOf(socket: unknown): Refusal | undefined;
  /**
   * Counts a WebSocket of `address` (a forwarded client address, behind proxies); returns what
   * releases it, or null when the address holds its maximum.
   */
  holdWebSocket(address: string): (() => void) | null;
  /** connections within the caps open now */
  readonly open: number;
}

/** Counts per key, forgetting a key at zero. */
function tally() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    add(key: string) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    },
    remove(key: string) {
      const left = (counts.get(key) ?? 0) - 1;
      if (left > 0) counts.set(key, left);
      else counts.delete(key);
    },
  };
}

/** An IPv4 client on a dual-stack socket is `::ffff:a.b.c.d`: the same address as `a.b.c.d`. */
const addressOf = (socket: Socket): string => (socket.remoteAddress ?? 'unknown').replace(/^::ffff:/i, '');

export function createConnectionGate(settings: ConnectionLimitSettings): ConnectionGate {
  const { maxTotal, maxPerAddress, behindProxies } = settings;
  const perAddress = tally();
  const refusing = tally();
  const refusals = new WeakMap<Socket, Refusal>();
  let open = 0;
  let refusingInAll = 0;

  function refuse(socket: Socket, address: string, refusal: Refusal): void {
    settings.onRefused?.(refusal);
    // Behind proxies every connection has the proxy's address: the per-address share would starve them all.
    if (refusingInAll >= REFUSAL_RESERVE || (!behindProxies && refusing.of(address) >= REFUSAL_RESERVE_PER_ADDRESS)) {
      socket.destroy();
      return;
    }
    refusingInAll++;
    refusing.add(address);
    refusals.set(socket, refusal);
    // Without a listener of its own, node's HTTP server destroys a socket that times out.
    socket.setTimeout(REFUSAL_READ_MS);
    socket.once('close', () => {
      refusingInAll--;
      refusing.remove(address);
    });
  }

  return {
    admit(socket) {
      const address = addressOf(socket);
      if (open >= maxTotal) return refuse(socket, address, 'total');
      if (!behindProxies && perAddress.of(address) >= maxPerAddress) return refuse(socket, address, 'address');
      open++;
      if (!behindProxies) perAddress.add(address);
      settings.onOpen?.();
      socket.once('close', () => {
        open--;
        if (!behindProxies) perAddress.remove(address);
        settings.onClose?.();
      });
    },
    refusalOf: (socket) => (socket ? refusals.get(socket as Socket) : undefined),
    holdWebSocket(address) {
      if (perAddress.of(address) >= maxPerAddress) {
        settings.onRefused?.('address');
        return null;
      }
      perAddress.add(address);
      let held = true;
      return () => {
        if (held) perAddress.remove(address);
        held = false;
      };
    },
    get open() {
      return open;
    },
  };
}

/**
 * Answers the request of a connection taken beyond a cap: the probe paths as usual, anything else
 * 429 COMMON429 (its address) or 503 COMMON503 (the instance) with Retry-After; either way the
 * connection closes after the answer.
 */
export function refuseBeyondCaps(gate: ConnectionGate): MiddlewareHandler<HttpEnv> {
  // Not async: the admitted request passes on with no promise of this middleware's own (Hono's
  // compose catches the refusal thrown here as it catches a rejection).
  return (c, next) => {
    const bindings = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const socket = bindings?.incoming?.socket;
    const refusal = gate.refusalOf(socket);
    if (!refusal) return next();
    // The request arrived: no more deadline for it (a readiness probe may take a while to answer).
    socket!.setTimeout(0);
    bindings?.outgoing?.setHeader('Connection', 'close');
    if (c.req.method === 'GET' && PROBE_PATHS.has(c.req.path) && bindings?.incoming?.headers.upgrade === undefined) return next();
    const retryAfter = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
    throw refusal === 'total'
      ? new AppError('COMMON503', `This instance holds as many connections as it takes; retry in ${RETRY_AFTER_SECONDS} seconds.`, { headers: retryAfter })
      : new AppError('COMMON429', `Too many open connections from this address; close one or retry in ${RETRY_AFTER_SECONDS} seconds.`, {
          headers: retryAfter,
        });
  };
}
