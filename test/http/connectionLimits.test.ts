// The counting behind the connection caps, on stand-in sockets (test/faults/heldConnections.test.ts
// holds real ones): per client address and in all, what a connection beyond them is marked with,
// how many of those are kept to be answered, and WebSockets counted by a forwarded address.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createConnectionGate, REFUSAL_RESERVE, REFUSAL_RESERVE_PER_ADDRESS, type ConnectionLimitSettings } from '../../src/http/connectionLimits.js';

class StandInSocket extends EventEmitter {
  destroyed = false;
  timeoutMs = 0;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
  setTimeout(ms: number): void {
    this.timeoutMs = ms;
  }
}

function gate(settings: Partial<ConnectionLimitSettings> = {}) {
  const refused: string[] = [];
  const g = createConnectionGate({ maxTotal: 1000, maxPerAddress: 1000, behindProxies: false, onRefused: (r) => refused.push(r), ...settings });
  const open = (address: string) => {
    const socket = new StandInSocket(address);
    g.admit(socket as unknown as Socket);
    return socket;
  };
  return { g, open, refused };
}

describe('connection caps', () => {
  it('counts per client address: beyond its cap a connection is marked "address"; others are not affected', () => {
    const { g, open, refused } = gate({ maxPerAddress: 2 });
    const [a, b] = [open('198.51.100.1'), open('198.51.100.1')];
    const third = open('198.51.100.1');
    expect(g.refusalOf(third)).toBe('address');
    expect(third.destroyed).toBe(false);
    expect(g.refusalOf(open('198.51.100.2'))).toBeUndefined();
    expect(g.refusalOf(a)).toBeUndefined();
    expect(refused).toEqual(['address']);
    expect(g.open).toBe(3);
    b.destroy();
    expect(g.refusalOf(open('198.51.100.1'))).toBeUndefined();
  });

  it('an IPv4 client on a dual-stack socket is the same address', () => {
    const { g, open } = gate({ maxPerAddress: 1 });
    open('198.51.100.1');
    expect(g.refusalOf(open('::ffff:198.51.100.1'))).toBe('address');
  });

  it('counts in all: beyond MAX_CONNECTIONS a connection is marked "total", and room comes back as connections close', () => {
    const { g, open } = gate({ maxTotal: 2 });
    const first = open('198.51.100.1');
    open('198.51.100.2');
    const beyond = open('198.51.100.3');
    expect(g.refusalOf(beyond)).toBe('total');
    // A refused connection holds no place within the caps.
    beyond.destroy();
    expect(g.open).toBe(2);
    first.destroy();
    expect(g.refusalOf(open('198.51.100.3'))).toBeUndefined();
  });

  it('keeps a bounded number of refused connections to answer (a few per address), a deadline on each, and closes the rest at once', () => {
    const { open } = gate({ maxPerAddress: 1 });
    open('198.51.100.1');
    const flood = Array.from({ length: REFUSAL_RESERVE_PER_ADDRESS + 3 }, () => open('198.51.100.1'));
    expect(flood.map((s) => s.destroyed)).toEqual([...Array.from({ length: REFUSAL_RESERVE_PER_ADDRESS }, () => false), true, true, true]);
    expect(flood[0]!.timeoutMs).toBeGreaterThan(0);
    // Other addresses still get their share.
    open('198.51.100.2');
    expect(open('198.51.100.2').destroyed).toBe(false);
    // An answered connection that closes frees its place in the reserve.
    flood[0]!.destroy();
    expect(open('198.51.100.1').destroyed).toBe(false);
  });

  it(`keeps at most ${REFUSAL_RESERVE} refused connections in all`, () => {
    const { open } = gate({ maxTotal: 1 });
    open('198.51.100.1');
    const beyond = Array.from({ length: REFUSAL_RESERVE + 1 }, (_, i) => open(`198.51.${100 + Math.floor(i / 200)}.${(i % 200) + 2}`));
    expect(beyond.filter((s) => s.destroyed)).toHaveLength(1);
    expect(beyond.at(-1)!.destroyed).toBe(true);
  });

  it('behind proxies: sockets are not counted per address (the proxy is one), WebSockets are, by the forwarded address', () => {
    const { g, open, refused } = gate({ maxPerAddress: 2, behindProxies: true });
    const sockets = Array.from({ length: 5 }, () => open('10.0.0.9'));
    expect(sockets.map((s) => g.refusalOf(s))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    const first = g.holdWebSocket('203.0.113.7');
    expect(g.holdWebSocket('203.0.113.7')).not.toBeNull();
    expect(g.holdWebSocket('203.0.113.7')).toBeNull();
    expect(g.holdWebSocket('203.0.113.8')).not.toBeNull();
    expect(refused).toEqual(['address']);
    first!();
    first!(); // released once, however often called
    expect(g.holdWebSocket('203.0.113.7')).not.toBeNull();
    expect(g.holdWebSocket('203.0.113.7')).toBeNull();
  });
});
