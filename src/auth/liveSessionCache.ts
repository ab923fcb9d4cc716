// The live sessions of a SQLite database, remembered by the one process that serves it, so that an
// authenticated request does not read auth_session each time (a statement and a wait for the
// connection's mutex, about a twentieth of a list request). Exact, not a time-bounded guess:
// - a session only this process ends is forgotten by the revoking statement itself
//   (sessionRepository.revokeSession), inside the same turn of the connection, so no read that
//   follows the revocation finds it remembered;
// - a change another connection commits to the file (a manual UPDATE, a second handle in a test; a
//   second service process on one file is not a deployment this service supports) moves SQLite's
//   `PRAGMA data_version`, checked at most once a second (a statement per request cost about as
//   much as the lookup it saves): everything is then forgotten, so such a change is seen within a
//   second;
// - expiry is checked on every use against the row's expires_at;
// - and nothing is kept longer than maxAgeMs, so a path that ends sessions without telling the cache
//   would still be bounded (none does: revokeSession is the only writer of revoked_at).
// PostgreSQL is shared by instances whose revocations this process does not see, so it reads live.
import type { LiveSessionOwner } from './liveSessionLookup.js';

interface Remembered extends LiveSessionOwner {
  expiresAt: number;
  rememberedAt: number;
}

export interface LiveSessionCache {
  /** the owner of a session remembered live at `nowMs`, if any */
  find(sessionId: string, nowMs: number): LiveSessionOwner | undefined;
  remember(sessionId: string, owner: LiveSessionOwner, expiresAt: number, nowMs: number): void;
  forget(sessionId: string): void;
}

export interface LiveSessionCacheOptions {
  /** the database's data_version: changes when another connection commits */
  dataVersion: () => number;
  /** how long a data_version read holds (default 1000 ms) */
  versionCheckMs?: number;
  maxEntries?: number;
  maxAgeMs?: number;
}

export function createLiveSessionCache(options: LiveSessionCacheOptions): LiveSessionCache {
  const { dataVersion, versionCheckMs = 1000, maxEntries = 10_000, maxAgeMs = 60_000 } = options;
  const sessions = new Map<string, Remembered>();
  let version = dataVersion();
  let versionReadAt = -Infinity;

  /** Forgets everything when another connection has committed since the last read of data_version. */
  function checkVersion(nowMs: number): void {
    versionReadAt = nowMs;
    const current = dataVersion();
    if (current === version) return;
    version = current;
    sessions.clear();
  }

  return {
    find(sessionId, nowMs) {
      if (sessions.size === 0) return undefined;
      // A clock that went back (tests move it) reads again too.
      if (nowMs - versionReadAt >= versionCheckMs || nowMs < versionReadAt) checkVersion(nowMs);
      const remembered = sessions.get(sessionId);
      if (remembered === undefined) return undefined;
      if (remembered.expiresAt <= nowMs || nowMs - remembered.rememberedAt >= maxAgeMs) {
        sessions.delete(sessionId);
        return undefined;
      }
      return remembered;
    },
    remember(sessionId, owner, expiresAt, nowMs) {
      checkVersion(nowMs);
      if (sessions.size >= maxEntries) sessions.delete(sessions.keys().next().value!);
      sessions.set(sessionId, { memberId: owner.memberId, role: owner.role, expiresAt, rememberedAt: nowMs });
    },
    forget(sessionId) {
      sessions.delete(sessionId);
    },
  };
}
