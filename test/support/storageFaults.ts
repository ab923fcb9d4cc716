// Real storage failures for tests, not simulated ones: a database at its size limit, database files
// the OS refuses to write, and a full file system. The tests run as root here, where chmod does not
// stop a write, so an unwritable file is made immutable (`chattr +i`, refused to root too), and a
// full disk is a small tmpfs filled up (needs mount). Each maker verifies that writing really fails
// and returns null when this machine cannot do it, so a test can say why it was skipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { DatabasePort } from '../../src/db/databasePort.js';

/** Caps the database at the pages it has now (PRAGMA max_page_count); `lift()` raises the cap again. */
/** The better-sqlite3 connection of a SQLite-backed port (the faults below are SQLite's). */
export function sqliteConnection(port: DatabasePort): BetterSqlite3.Database {
  if (port.engine.dialect !== 'sqlite') throw new Error('storage faults are injected on SQLite only');
  return port.engine.db.$client;
}

export function capDatabaseSize(sqlite: BetterSqlite3.Database): { lift(): void } {
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  sqlite.pragma(`max_page_count = ${pages}`);
  return { lift: () => void sqlite.pragma('max_page_count = 1073741823') };
}

function writable(file: string): boolean {
  try {
    fs.closeSync(fs.openSync(file, 'r+'));
    return true;
  } catch {
    return false;
  }
}

function run(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes existing files unwritable at the OS level while a process keeps them open: `chattr +i`
 * (the file system must support it and the caller needs CAP_LINUX_IMMUTABLE, as root has). Returns
 * null when that does not work here.
 */
export function makeImmutable(files: string[]): { restore(): void } | null {
  const restore = () => void run('chattr', ['-i', ...files]);
  if (!run('chattr', ['+i', ...files]) || files.some(writable)) {
    restore();
    return null;
  }
  return { restore };
}

/**
 * A folder nobody may write to, by whatever works here: chmod 555 for an ordinary user, `chattr +i`
 * for root (who ignores the mode). Returns null when neither works.
 */
export function unwritableFolder(): { dir: string; restore(): void } | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-readonly-'));
  const cannotWrite = () => {
    try {
      fs.writeFileSync(path.join(dir, 'probe'), '');
      fs.rmSync(path.join(dir, 'probe'));
      return false;
    } catch {
      return true;
    }
  };
  const remove = () => {
    run('chattr', ['-i', dir]);
    fs.chmodSync(dir, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  fs.chmodSync(dir, 0o555);
  if (cannotWrite()) return { dir, restore: remove };
  if (run('chattr', ['+i', dir]) && cannotWrite()) return { dir, restore: remove };
  remove();
  return null;
}

/**
 * A small tmpfs of `sizeBytes`, and a way to fill it to the last byte and empty it again. Returns
 * null when mounting is not allowed here.
 */
export function smallTmpfs(sizeBytes: number): { dir: string; fill(): void; empty(): void; unmount(): void } | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-tmpfs-'));
  if (!run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir])) {
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const block = Buffer.alloc(4096);
      try {
        for (;;) fs.writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
    },
    empty: () => fs.rmSync(filler, { force: true }),
    unmount() {
      run('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
