// `npm run demo -- --base-url <mock>` runs to its end against the mock: the documented flow from
// dev-login to the plan read back, including the chat edit the demo asks for, which the mock
// announces as the service does (schedule UPDATE_STARTED and UPDATED, chat UPDATED, the answer).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../../tools/mock/mockServer.js';

const root = path.resolve(import.meta.dirname, '../../..');

let m: RunningMock;
beforeAll(async () => {
  m = await startMockServer(0, '127.0.0.1', { NODE_ENV: 'test', LOG_LEVEL: 'silent', MOCK_STREAM_DELAY_MS: '0' });
});
afterAll(() => m.close());

/** Runs the demo as `npm run demo` does; resolves with its exit code and what it printed. */
function demo(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/demo/demo.ts', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

it('runs the whole documented flow against the mock and exits 0', async () => {
  const { code, out, err } = await demo('--base-url', m.url, '--timeout', '60');
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(out).toContain('COMPLETED:');
  expect(out).toContain('You: swap stop 1 and 2 on day 1');
  expect(out).toMatch(/\nUpdated Day 1/);
  expect(out).toMatch(/\nAssistant: /);
  expect(out).toMatch(/\nSaved \(GET \/api\/v1\/trips\/daily-plans\/\d+\): \d+ days/);
});
