// A Redis server of the soak's own (the machine's redis-server binary, keeping nothing on disk), so
// that "Redis restarts and comes back empty" can be done for real without touching the shared one.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface OwnRedis {
  port: number;
  url: string;
  /** kill -9 and start again on the same port: everything it held is gone */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => done(chunk.toString().startsWith('+PONG')));
  });
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function spawnRedis(port: number): ChildProcess {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
    stdio: 'ignore',
  });
  child.on('error', () => undefined);
  return child;
}

export async function startOwnRedis(port: number): Promise<OwnRedis> {
  let child = spawnRedis(port);
  await waitFor(() => answersPing(port), `redis-server on port ${port}`);
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => c.once('exit', () => resolve()));
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async restart(downMs) {
      child.kill('SIGKILL');
      await exited(child);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = spawnRedis(port);
      await waitFor(() => answersPing(port), `redis-server back on port ${port}`);
    },
    async stop() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
