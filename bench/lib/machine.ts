// What the numbers were measured on, printed first so a quoted result carries its context.
import os from 'node:os';

export function machineLines(now = new Date()): string[] {
  const cpus = os.cpus();
  return [
    `cpu:    ${cpus[0]?.model.trim() ?? 'unknown'} x ${cpus.length} cores`,
    `memory: ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `node:   ${process.version} (${os.platform()} ${os.release()} ${os.arch()})`,
    `date:   ${now.toISOString()}`,
    `load:   ${loadLine()} (1, 5, 15 min; other work on the machine shares the cores)`,
  ];
}

export const loadLine = (): string =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
