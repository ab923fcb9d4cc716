// Fault hooks: shell commands the runner runs at a chosen point of the delivery phase's generation,
// so that a CI job can kill an instance, restart Redis or cut a link while messages are on their
// way, and the runner then checks that every delivery guarantee still held. The runner waits for
// the command to end (bounded), and a command that fails is a failure of the run, not a crash.
import { spawn } from 'node:child_process';

/** `after-day-N`: once a subscriber got day N's schedule message; `after-run`: once the run's last message came. */
export type FaultPoint = `after-day-${number}` | 'after-run';

export interface FaultHook {
  point: FaultPoint;
  command: string;
}

/** `POINT=COMMAND` (as `--fault-hook` takes it) as a hook, or what is wrong with it. */
export function parseFaultHook(text: string): FaultHook | string {
  const at = text.indexOf('=');
  const point = at < 0 ? text : text.slice(0, at);
  const command = at < 0 ? '' : text.slice(at + 1).trim();
  if (!/^(after-day-[1-9][0-9]{0,2}|after-run)$/.test(point))
    return `--fault-hook ${JSON.stringify(text)}: the point must be after-day-N (N from 1) or after-run`;
  if (command === '') return `--fault-hook ${JSON.stringify(text)}: give a command after the "=" (POINT=COMMAND)`;
  return { point: point as FaultPoint, command };
}

export interface HookOutcome {
  ok: boolean;
  /** the exit, and the end of what the command printed */
  detail: string;
}

/** How much of a hook's output a report quotes. */
const OUTPUT_TAIL = 1000;

/**
 * Runs the hook's command with `sh -c`, `env` added to the runner's environment (so the command can
 * name the plan it interrupts); resolves when it exits, or kills it after `timeoutMs`.
 */
export function runFaultHook(hook: FaultHook, env: Record<string, string>, timeoutMs: number): Promise<HookOutcome> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', hook.command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: `could not run: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const how =
        signal === 'SIGKILL' && code === null ? `did not end within ${timeoutMs} ms and was killed` : signal ? `ended by ${signal}` : `exited with ${code}`;
      resolve({ ok: code === 0, detail: `${how}${output.trim() ? `; output: ${output.trim()}` : ''}` });
    });
  });
}
