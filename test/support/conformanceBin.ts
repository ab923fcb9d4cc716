// The conformance runner as a user runs it: its bin in a child process, so a runner that hangs shows
// as this helper's time running out (the child is killed), not as a stuck test worker. It reports
// the child's peak resident memory, which the child prints as it exits.
import { spawn } from 'node:child_process';
import path from 'node:path';

const binFolder = path.resolve(import.meta.dirname, '../../conformance/bin');
const reportPeakRss = `data:text/javascript,process.on('exit', () => process.stderr.write('peak-rss-kib ' + process.resourceUsage().maxRSS + '\\n'))`;

export interface BinRun {
  /** null when the child was killed */
  code: number | null;
  stdout: string;
  stderr: string;
  /** the child's peak RSS in MiB; undefined when it was killed before it could say */
  peakRssMib: number | undefined;
  /** true when `killAfterMs` passed and the child was killed */
  killed: boolean;
}

export function runConformanceBin(args: string[], killAfterMs: number): Promise<BinRun> {
  return runPackageBin('trip-conformance', args, killAfterMs);
}

/** One of the package's bins (`trip-conformance-mutants`, ...), as runConformanceBin runs trip-conformance. */
export function runPackageBin(name: string, args: string[], killAfterMs: number): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const bin = path.join(binFolder, `${name}.js`);
    const child = spawn(process.execPath, ['--import', reportPeakRss, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => ((killed = true), child.kill('SIGKILL')), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const peak = /peak-rss-kib (\d+)/.exec(stderr)?.[1];
      resolve({ code, stdout, stderr, peakRssMib: peak === undefined ? undefined : Number(peak) / 1024, killed });
    });
  });
}
