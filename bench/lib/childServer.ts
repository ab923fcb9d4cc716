// Starts a server as a child process (node --import tsx <entry>; plain node for a built .js entry), waits until `readyPath` answers
// 200, and stops it again. Its output is kept and shown only when it fails to start.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  baseUrl: string;
  /** the server's own node process (spawned directly, no npx/tsx wrapper): for /proc/<pid>/status */
  pid: number;
  /** the tail of its stdout and stderr */
  output(): string;
  stop(): Promise<void>;
}

export async function startChildServer(opts: {
  entry: string;
  cwd: string;
  port: number;
  env: Record<string, string>;
  readyPath: string;
  timeoutMs?: number;
  /** node options before the entry, e.g. --cpu-prof (which NODE_OPTIONS does not take) */
  nodeArgs?: string[];
}): Promise<ChildServer> {
  const loader = opts.entry.endsWith('.js') ? [] : ['--import', 'tsx'];
  const child: ChildProcess = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...loader, opts.entry], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env, PORT: String(opts.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };

  const baseUrl = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${opts.entry} exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}${opts.readyPath}`);
      await res.arrayBuffer();
      if (res.status === 200) return { baseUrl, pid: child.pid!, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`${opts.entry} was not ready within ${opts.timeoutMs ?? 30_000} ms:\n${output}`);
}
