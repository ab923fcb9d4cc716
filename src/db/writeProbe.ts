// The readiness probe (/readyz): can the storage take a write right now? It reads the truth at the
// moment of the call rather than remembering the last write's outcome, which could not tell when
// storage recovered while nobody wrote (and nobody writes to an instance that reports DOWN).
// 1. One transaction inserts a row of one page into storage_probe and deletes it again. Its commit
//    allocates a page and appends to the WAL like a real write, so a full or read-only disk, an I/O
//    error or a lock held elsewhere makes it throw. Cost: a few WAL pages, no fsync (WAL with
//    synchronous=NORMAL).
// 2. The database keeps room for a write of this service under its size limit (PRAGMA
//    max_page_count): the largest rows (a day's 20,000-character description with its stops) take
//    a handful of pages, so fewer than PROBE_HEADROOM_PAGES free pages under the limit is "full"
//    even while a one-page probe would still fit.
import BetterSqlite3 from 'better-sqlite3';
import { prepared } from './preparedStatements.js';

export const PROBE_HEADROOM_PAGES = 16;

/** Throws the storage's error (a BetterSqlite3.SqliteError) when it cannot take a write. */
export function probeWrite(sqlite: BetterSqlite3.Database): void {
  const probe = prepared(sqlite, 'probeWrite', () => {
    const pragma = (name: string) => sqlite.prepare(`PRAGMA ${name}`).pluck();
    const [pageSize, maxPageCount, pageCount, freelistCount] = ['page_size', 'max_page_count', 'page_count', 'freelist_count'].map(pragma) as [
      BetterSqlite3.Statement,
      BetterSqlite3.Statement,
      BetterSqlite3.Statement,
      BetterSqlite3.Statement,
    ];
    const insert = sqlite.prepare('INSERT INTO storage_probe (id, pad) VALUES (1, zeroblob(?))');
    const remove = sqlite.prepare('DELETE FROM storage_probe');
    return {
      write: sqlite.transaction((bytes: number) => {
        remove.run();
        insert.run(bytes);
        remove.run();
      }),
      room: () => (maxPageCount.get() as number) - (pageCount.get() as number) + (freelistCount.get() as number),
      pageSize: () => pageSize.get() as number,
    };
  });
  probe.write.immediate(probe.pageSize());
  const room = probe.room();
  if (room < PROBE_HEADROOM_PAGES) {
    throw new BetterSqlite3.SqliteError(
      `database or disk is full (${room} of ${PROBE_HEADROOM_PAGES} pages of headroom left under max_page_count)`,
      'SQLITE_FULL',
    );
  }
}
