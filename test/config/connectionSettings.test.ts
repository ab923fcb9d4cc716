// The settings of the connection caps, the HTTP server's time limits, the CONNECT deadline and the
// chat message limit: their defaults, the open-files limit MAX_CONNECTIONS must stay under, and the
// combinations refused at start.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, openFilesLimit } from '../../src/config/config.js';

describe('connection and abuse settings', () => {
  it('default: 10000 connections, 256 per address, headers in 10 s, a request in 30 s, keep-alive 5 s, CONNECT in 10 s, 20 chat messages a minute', () => {
    const config = loadConfig({}, 65_536);
    expect(config.connections).toEqual({ maxTotal: 10_000, maxPerAddress: 256 });
    expect(config.httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5000 });
    expect(config.stomp.connectTimeoutMs).toBe(10_000);
    expect(config.chatMessagesPerMinute).toBe(20);
    // Tests send as many chat messages as they like unless they set the limit.
    expect(loadConfig({ NODE_ENV: 'test' }).chatMessagesPerMinute).toBe(0);
  });

  it('MAX_CONNECTIONS defaults to what the open-files limit leaves when that is less, and an explicit value above it is refused', () => {
    expect(loadConfig({}, 1500).connections.maxTotal).toBe(1244);
    expect(loadConfig({}, null).connections.maxTotal).toBe(10_000);
    expect(loadConfig({ MAX_CONNECTIONS: '1244' }, 1500).connections.maxTotal).toBe(1244);
    expect(() => loadConfig({ MAX_CONNECTIONS: '5000' }, 1500)).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_CONNECTIONS: '5000' }, 1500)).toThrow(
      /^MAX_CONNECTIONS="5000" is not accepted; expected at most 1244: the open-files limit \(ulimit -n\) is 1500/,
    );
  });

  it("reads this process's open-files limit", () => {
    const limit = openFilesLimit();
    if (process.platform === 'linux') expect(limit).toBeGreaterThan(0);
  });

  it('a request may not have less time than its headers', () => {
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000' }).httpTimeouts.requestMs).toBe(60_000);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      'HTTP_REQUEST_TIMEOUT_MS=10000 is not accepted with HTTP_HEADERS_TIMEOUT_MS=20000',
    );
  });

  it.each([
    ['MAX_CONNECTIONS', '0'],
    ['MAX_CONNECTIONS_PER_ADDRESS', 'many'],
    ['HTTP_HEADERS_TIMEOUT_MS', '50'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '-1'],
    ['STOMP_CONNECT_TIMEOUT_MS', '99'],
    ['CHAT_MESSAGES_PER_MINUTE', '1.5'],
  ])('%s=%s is refused, naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}="${value.replace('.', '\\.')}" is not accepted`));
  });
});
