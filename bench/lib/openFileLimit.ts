// The soft limit on open files of this process (children inherit it), from /proc/self/limits; null
// where there is no procfs. Every WebSocket is one descriptor on each side of the benchmark.
import fs from 'node:fs';

export function openFileLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}
