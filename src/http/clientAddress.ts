// The address a request came from, for the rate limit (and the bound on the OpenID Connect sign-ins
// one address may have pending). Behind a load balancer every request comes
// from the balancer's address, so one limit would count the whole world together; with
// TRUST_PROXY_HOPS = n the client is the address the n-th proxy from us saw, which that proxy
// appended to X-Forwarded-For. Entries left of it were written by the client and are not trusted.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** How the rate limit tells clients apart: `trustedHops` proxies in front of the service (0: none). */
export function clientAddressOf(trustedHops: number): (c: Context) => string {
  return (c) => {
    const peer = peerAddress(c);
    if (trustedHops === 0) return peer;
    const forwarded = forwardedChain(c.req.header('x-forwarded-for'));
    // Fewer entries than trusted proxies: the request skipped one of them, so take the furthest
    // address anyone vouched for rather than the peer (which would lump clients together).
    if (forwarded.length === 0) return peer;
    return forwarded[Math.max(0, forwarded.length - trustedHops)]!;
  };
}

function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests: no socket behind the request.
    return 'in-process';
  }
}

/** The addresses of X-Forwarded-For (repeated headers arrive joined with commas), empty entries dropped. */
function forwardedChain(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0 && entry.length <= 64);
}
