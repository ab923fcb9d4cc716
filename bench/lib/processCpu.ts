// CPU time a process has used so far (user + system), from /proc/<pid>/stat; null where there is
// no procfs. Read before and after a run, it tells whether the server or the load generator (the
// two share the machine) was the one using the cores.
import fs from 'node:fs';

/** USER_HZ: the unit of the stat times; 100 on every mainstream Linux build. */
const ticksPerSecond = 100;

export function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; the numeric fields follow its closing ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after the state field (3).
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return null;
  }
}
