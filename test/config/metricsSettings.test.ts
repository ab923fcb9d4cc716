// METRICS_ENABLED and METRICS_TOKEN (docs/operations.md, "Operating it"): metrics are on by default and served
// without a token on a loopback HOST only; a token makes them servable anywhere; a token too short
// or with spaces is refused in one line that never shows it.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const token = 'a'.repeat(16);

describe('metrics settings', () => {
  it('served without a token on a loopback HOST only; with a token on any; never when off', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true, token: null, served: true });
    for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) expect(loadConfig({ HOST: host }).metrics.served, host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) expect(loadConfig({ HOST: host }).metrics.served, host).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_TOKEN: token }).metrics).toEqual({ enabled: true, token, served: true });
    // Behind a proxy on the same machine every request arrives from loopback: only the token protects it.
    expect(loadConfig({ HOST: '127.0.0.1', TRUST_PROXY_HOPS: '1' }).metrics.served).toBe(false);
    expect(loadConfig({ HOST: '127.0.0.1', TRUST_PROXY_HOPS: '1', METRICS_TOKEN: token }).metrics.served).toBe(true);
    expect(loadConfig({ METRICS_ENABLED: 'false', METRICS_TOKEN: token }).metrics.served).toBe(false);
  });

  it('refuses a token under 16 characters or with a space, without showing it', () => {
    for (const raw of ['a'.repeat(15), `${'a'.repeat(16)} b`, 'ä'.repeat(16)]) {
      expect(() => loadConfig({ METRICS_TOKEN: raw }), raw).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: raw })).toThrow(/^METRICS_TOKEN=\(\d+ bytes, not shown\) is not accepted/);
    }
    expect(() => loadConfig({ METRICS_ENABLED: 'maybe' })).toThrow(/^METRICS_ENABLED="maybe" is not accepted/);
  });
});
