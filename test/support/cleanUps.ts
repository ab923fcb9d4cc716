// What a test starts as it goes (apps, databases, proxies), stopped after it, last started first.
import { afterEach } from 'vitest';
import { startTestApp, type TestApp } from './testApp.js';

export interface CleanUps {
  add(cleanUp: () => Promise<void> | void): void;
  /** a test app, closed after the test */
  app(env?: Record<string, string>): Promise<TestApp>;
}

export function cleanUpsAfterEach(): CleanUps {
  const pending: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanUp of pending.splice(0).reverse()) await cleanUp();
  });
  return {
    add: (cleanUp) => void pending.push(cleanUp),
    async app(env = {}) {
      const t = await startTestApp(env);
      pending.push(() => t.close());
      return t;
    },
  };
}
