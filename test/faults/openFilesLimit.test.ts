// Every connection is an open file. With the open-files limit lowered (ulimit -n 1500) and more
// idle connections than that opened against the service, /healthz still answers: MAX_CONNECTIONS
// defaults to what the limit leaves, and connections beyond it are refused instead of exhausting
// the process's files. The real entry runs as a child process; time limits only bound a hang.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedWithin, getFrom, holdConnection, type HeldConnection } from '../support/rawConnections.js';
import { lineOf, repoRoot, serviceEnv } from '../support/serviceProcess.js';

const HANG_LIMIT_MS = 60_000;
const OPEN_FILES = 1500;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function serviceWithOpenFiles(limit: number, env: Record<string, string>): ChildProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-files-'));
  const child = spawn('sh', ['-c', `ulimit -n ${limit} && exec "${process.execPath}" --import tsx src/main.ts`], {
    cwd: repoRoot,
    env: serviceEnv({ DATA_DIR: dataDir, PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

describe('open-files limit', { timeout: 3 * HANG_LIMIT_MS }, () => {
  it(`with ulimit -n ${OPEN_FILES}, ${OPEN_FILES + 500} idle connections from one client leave /healthz answering`, async () => {
    // One client address, allowed as many as it likes: only the instance's cap stands in the way.
    const child = serviceWithOpenFiles(OPEN_FILES, { MAX_CONNECTIONS_PER_ADDRESS: '100000' });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const port = (JSON.parse(await lineOf(child, /"msg":"listening/, HANG_LIMIT_MS)) as { port: number }).port;

    const held: HeldConnection[] = [];
    cleanups.push(() => held.forEach((c) => c.socket.destroy()));
    for (let i = 0; i < OPEN_FILES + 500; i++) held.push(await holdConnection(port));

    const health = await getFrom(port, '/healthz', '127.0.0.2');
    expect(health.status, stderr).toBe(200);
    // Connections beyond the cap were closed rather than kept: some of the last ones are gone.
    expect(await closedWithin(held.at(-1)!, HANG_LIMIT_MS)).toBe('closed');
    expect(child.exitCode, stderr).toBeNull();
  });
});
