// The STOMP connections of this server instance that completed CONNECT, by member and by auth
// session: for the per-member connection limit (WS107) and for ending every connection of a session
// the moment it is logged out or revoked (WS002). Limits: asyncapi.yaml, server `stomp`.
import type { StompErrorFrameCode } from '../../generated/errorCodes.js';

export interface LiveConnection {
  readonly memberId: number;
  /** the auth session (sign-in) the connection's access token belongs to */
  readonly authSessionId: string;
  /** sends ERROR with `code`, then closes */
  end(code: StompErrorFrameCode, message: string): void;
}

export interface StompConnections {
  /** Registers a connection that just authenticated; false when its member is already at the limit. */
  admit(connection: LiveConnection): boolean;
  remove(connection: LiveConnection): void;
  /** Ends every connection of an auth session; returns how many there were. */
  endSession(authSessionId: string, code: StompErrorFrameCode, message: string): number;
  /** connections of a member (diagnostics, tests) */
  countOf(memberId: number): number;
}

export function createStompConnections(maxPerMember: number): StompConnections {
  const byMember = new Map<number, Set<LiveConnection>>();
  const bySession = new Map<string, Set<LiveConnection>>();

  const add = <K>(index: Map<K, Set<LiveConnection>>, key: K, connection: LiveConnection) => {
    const set = index.get(key) ?? new Set();
    index.set(key, set);
    set.add(connection);
  };
  const drop = <K>(index: Map<K, Set<LiveConnection>>, key: K, connection: LiveConnection) => {
    const set = index.get(key);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) index.delete(key);
  };

  return {
    admit(connection) {
      if ((byMember.get(connection.memberId)?.size ?? 0) >= maxPerMember) return false;
      add(byMember, connection.memberId, connection);
      add(bySession, connection.authSessionId, connection);
      return true;
    },
    remove(connection) {
      drop(byMember, connection.memberId, connection);
      drop(bySession, connection.authSessionId, connection);
    },
    endSession(authSessionId, code, message) {
      const connections = [...(bySession.get(authSessionId) ?? [])];
      for (const connection of connections) connection.end(code, message);
      return connections.length;
    },
    countOf: (memberId) => byMember.get(memberId)?.size ?? 0,
  };
}
