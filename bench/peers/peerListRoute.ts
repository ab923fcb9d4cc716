// The work of `GET /api/v1/trips` written by hand, for the Hono + openapi-backend peer of the
// benchmark: the same HS256 check of the same access tokens (signature, typ, exp), the same
// live-session lookup, the same keyset query text (listOwnTripPlansSql) on the same SQLite file, and
// the same envelope. Prepared statements on better-sqlite3 directly, as a hand-written service would
// have them; the framework around it is what the peer compares. (The Fastify peer has its own,
// closer to our server: fastifyListServer.ts.)
import crypto from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
// Straight from its module rather than src/index.ts: a peer server loads nothing else of the service.
import { listOwnTripPlansSql, type TripSort } from '../../src/trips/tripPlanList.js';

export interface ListQuery {
  size: number;
  sort: string;
  cursor?: number;
}

type Row = {
  id: number;
  memberId: number;
  chatRoomId: number;
  title: string;
  startDate: string;
  region: string;
  imageUrl: string | null;
  generationStatus: string;
};
type ListPage = { success: true; status: 200; data: { content: unknown[]; nextCursor: number | null; hasNext: boolean; size: number } };

export type Authenticated = { memberId: number } | { error: 'AUTH011' | 'AUTH001' | 'AUTH002' };

export function peerListRoute(databaseFile: string, jwtSecret: string) {
  const sqlite = new BetterSqlite3(databaseFile);
  sqlite.pragma('busy_timeout = 5000');
  const session = sqlite.prepare<[string], { memberId: number; expiresAt: number }>(
    'SELECT member_id AS memberId, expires_at AS expiresAt FROM auth_session WHERE id = ? AND revoked_at IS NULL',
  );
  const cursorRow = sqlite.prepare<[number, number], { id: number; createdAt: number; startDate: string }>(
    'SELECT id, created_at AS createdAt, start_date AS startDate FROM trip_plan WHERE id = ? AND member_id = ?',
  );
  const pages = new Map<string, BetterSqlite3.Statement<Record<string, unknown>, Row>>();
  const pageStatement = (sort: TripSort, withCursor: boolean) => {
    const key = `${sort.field}:${sort.direction}:${withCursor}`;
    let statement = pages.get(key);
    if (!statement) pages.set(key, (statement = sqlite.prepare<Record<string, unknown>, Row>(listOwnTripPlansSql(sort, withCursor))));
    return statement;
  };

  function verifyToken(token: string, nowMs: number): { sub: number; sid: string } | 'AUTH001' | 'AUTH002' {
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature) return 'AUTH001';
    const expected = crypto.createHmac('sha256', jwtSecret).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'AUTH001';
    try {
      const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: unknown }).alg;
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      if (alg !== 'HS256' || claims.typ !== 'access' || typeof claims.sub !== 'string' || !/^[1-9]\d*$/.test(claims.sub)) return 'AUTH001';
      if (typeof claims.sid !== 'string' || typeof claims.exp !== 'number') return 'AUTH001';
      if (claims.exp * 1000 <= nowMs) return 'AUTH002';
      return { sub: Number(claims.sub), sid: claims.sid };
    } catch {
      return 'AUTH001';
    }
  }

  return {
    authenticate(authorization: string | undefined): Authenticated {
      if (!authorization) return { error: 'AUTH011' };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match?.[1]) return { error: 'AUTH001' };
      const now = Date.now();
      const claims = verifyToken(match[1], now);
      if (typeof claims === 'string') return { error: claims };
      const live = session.get(claims.sid);
      if (!live || live.expiresAt <= now || live.memberId !== claims.sub) return { error: 'AUTH001' };
      return { memberId: live.memberId };
    },
    /** The page envelope, or null when the cursor is not one of the member's plans. */
    listPage(memberId: number, query: ListQuery): ListPage | null {
      const [field, direction] = query.sort.split(':') as [TripSort['field'], TripSort['direction']];
      const sort = { field, direction };
      let rows: Row[];
      if (query.cursor === undefined) rows = pageStatement(sort, false).all({ memberId, limit: query.size + 1 });
      else {
        const cursor = cursorRow.get(query.cursor, memberId);
        if (!cursor) return null;
        const cursorValue = field === 'createdAt' ? cursor.createdAt : cursor.startDate;
        rows = pageStatement(sort, true).all({ memberId, limit: query.size + 1, cursorValue, cursorId: cursor.id });
      }
      const hasNext = rows.length > query.size;
      const shown = hasNext ? rows.slice(0, query.size) : rows;
      const content = shown.map((r) => ({
        id: r.id,
        memberId: r.memberId,
        chatRoomId: r.chatRoomId,
        title: r.title,
        startDate: r.startDate,
        isCompleted: r.generationStatus === 'COMPLETED',
        region: r.region,
        imageUrl: r.imageUrl,
      }));
      return { success: true, status: 200, data: { content, nextCursor: hasNext ? shown[shown.length - 1]!.id : null, hasNext, size: shown.length } };
    },
    close: () => sqlite.close(),
  };
}
