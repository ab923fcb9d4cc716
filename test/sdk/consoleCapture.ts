// Generators report problems on the console rather than by throwing. Collect their warnings and
// errors so a test can assert the published documents raise none; progress chatter (log, info) is
// swallowed to keep the test output readable.
import { format } from 'node:util';

export async function captureWarnings<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  console.log = console.info = () => undefined;
  console.warn = (...args: unknown[]) => void warnings.push(`warn: ${format(...args)}`);
  console.error = (...args: unknown[]) => void warnings.push(`error: ${format(...args)}`);
  try {
    return { result: await run(), warnings };
  } finally {
    Object.assign(console, saved);
  }
}
