// The Fastify peer's reads, the one thing that differs between its engines: each engine's file
// (peerDatabase.sqlite.ts on better-sqlite3, peerDatabase.postgres.ts on node-postgres) prepares
// these statements once, from the service's own SQL text where the service has one, and hands back
// raw rows (arrays), as the service's hand-written statements do.
import type { components } from '../../generated/openapi.js';
import type { ListRow } from '../../src/trips/tripPlanList.js';
import { tripPlanDetailSql, type DetailRow as ServiceDetailRow } from '../../src/index.js';

export type { ListRow };
export type CursorRow = [id: number, createdAt: number, startDate: string];
/** The detail's columns, in detailSql's order (the service's row, src/trips/tripPlanDetail.ts); the themes already parsed. */
export type DetailRow = ServiceDetailRow<components['schemas']['PlaceThemeType'][]>;

/** A value, or a promise of it: better-sqlite3 answers at once, node-postgres later. */
type Answer<T> = T | Promise<T>;

export interface PeerDatabase {
  /** The member id of a live session (the service's liveSessionOwnerSql), or undefined. */
  liveSessionOwner(sessionId: string, nowMs: number): Answer<number | undefined>;
  /** The keyset position of one of the member's plans, or undefined when it is not theirs. */
  cursorRow(memberId: number, tripPlanId: number): Answer<CursorRow | undefined>;
  /** `limit` rows of a list page (`sort` is `field:direction`, already validated), after `after` when given. */
  pageRows(sort: string, memberId: number, limit: number, after: CursorRow | undefined): Answer<ListRow[]>;
  /** The member's plan with its chat room, or undefined. */
  detailRow(memberId: number, tripPlanId: number): Answer<DetailRow | undefined>;
  close(): Answer<void>;
}

/** The cursor's lookup, as the service reads it (tripPlanRepository.ts's findOwnListCursor). */
export const cursorSql = (tripPlanId: string, memberId: string) =>
  `SELECT id, created_at, start_date FROM trip_plan WHERE id = ${tripPlanId} AND member_id = ${memberId}`;

/** The plan and its chat room, the columns of DetailRow: the service's own SQL (src/trips/tripPlanDetail.ts). */
export const detailSql = tripPlanDetailSql;

/** The cursor's value in the column of the order `sort`. */
export const cursorValueIn = (sort: string, after: CursorRow) => (sort.startsWith('createdAt') ? after[1] : after[2]);

/** Every order a list page can have, as `field:direction`. */
export const sorts = ['createdAt', 'startDate'].flatMap((field) => ['asc', 'desc'].map((direction) => `${field}:${direction}`));
