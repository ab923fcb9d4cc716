// The OpenID Connect provider of a test file and the services started against it: the provider
// starts before the file's tests and stops after them, once everything the tests started (services,
// proxies, databases) has been closed, newest first.
import { afterAll, beforeAll } from 'vitest';
import { startOidcHarness, type OidcHarness } from './oidcHarness.js';
import { startTestApp, type TestApp, type TestAppOptions } from './testApp.js';

export interface OidcTestServices {
  /** the provider (from beforeAll on) */
  readonly harness: OidcHarness;
  /** a service configured for the provider, with `env` on top; closed after the file's tests */
  service: (env?: Record<string, string>, options?: TestAppOptions) => Promise<TestApp>;
  /** runs `cleanup` after the file's tests, before the provider stops */
  cleanUpAfter: (cleanup: () => Promise<unknown>) => void;
}

export function oidcTestServices(): OidcTestServices {
  let harness: OidcHarness | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    harness = await startOidcHarness();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await harness?.stop();
  });
  const services: OidcTestServices = {
    get harness() {
      if (!harness) throw new Error('the OpenID Connect provider starts in beforeAll');
      return harness;
    },
    service: async (env = {}, options = {}) => {
      const t = await startTestApp({ ...services.harness.env, ...env }, options);
      cleanups.push(() => t.close());
      return t;
    },
    cleanUpAfter: (cleanup) => void cleanups.push(cleanup),
  };
  return services;
}
