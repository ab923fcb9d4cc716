// The Fastify peer's reads of trip plans: raw better-sqlite3 statements prepared once. A list page
// is the service's own keyset SQL text (src/trips/tripPlanList.ts: `(field, id)` after the cursor's,
// size + 1 rows, joined to chat_room), one statement per order and with or without a cursor; the
// cursor's key comes from one lookup of the member's plan, as the service reads it; the detail is
// one statement of the plan with its chat room.
import type BetterSqlite3 from 'better-sqlite3';
import type { components } from '../../generated/openapi.js';
import { listOwnTripPlansSql, type ListRow, type TripSort } from '../../src/trips/tripPlanList.js';

type Schemas = components['schemas'];
type Page = Schemas['TripPlanPageEnvelope']['data'];

type CursorRow = [id: number, createdAt: number, startDate: string];
type DetailRow = [number, number, string, string, string, string, number, number, string, string, string, string | null, number];

const sorts: TripSort[] = ['createdAt', 'startDate'].flatMap((field) => ['asc', 'desc'].map((direction) => ({ field, direction }) as TripSort));

export function peerTripStatements(sqlite: BetterSqlite3.Database) {
  const pages = new Map<string, BetterSqlite3.Statement<Record<string, unknown>, ListRow>>();
  for (const sort of sorts)
    for (const withCursor of [false, true])
      pages.set(
        `${sort.field}:${sort.direction}:${withCursor}`,
        sqlite.prepare<Record<string, unknown>, ListRow>(listOwnTripPlansSql(sort, withCursor)).raw(true),
      );
  const cursorRow = sqlite.prepare<[number, number], CursorRow>('SELECT id, created_at, start_date FROM trip_plan WHERE id = ? AND member_id = ?').raw(true);
  const detail = sqlite
    .prepare<[number, number], DetailRow>(
      `SELECT p.id, r.id, p.title, p.region, p.start_date, p.end_date, p.duration, p.people_count, p.themes, p.transportation,
         p.generation_status, p.image_url, p.created_at FROM trip_plan p JOIN chat_room r ON r.trip_plan_id = p.id WHERE p.id = ? AND p.member_id = ?`,
    )
    .raw(true);

  return {
    /** One page in the order `sort` (`field:direction`, already validated), or null when the cursor is not one of the member's plans. */
    page(memberId: number, sort: string, size: number, cursor: number | undefined): Page | null {
      let rows: ListRow[];
      if (cursor === undefined) rows = pages.get(`${sort}:false`)!.all({ memberId, limit: size + 1 });
      else {
        const after = cursorRow.get(cursor, memberId);
        if (!after) return null;
        const cursorValue = sort.startsWith('createdAt') ? after[1] : after[2];
        rows = pages.get(`${sort}:true`)!.all({ memberId, limit: size + 1, cursorValue, cursorId: after[0] });
      }
      const hasNext = rows.length > size;
      const shown = hasNext ? rows.slice(0, size) : rows;
      const content = shown.map(([id, owner, chatRoomId, title, startDate, region, imageUrl, generationStatus]) => ({
        id,
        memberId: owner,
        chatRoomId,
        title,
        startDate,
        isCompleted: generationStatus === 'COMPLETED',
        region,
        imageUrl,
      }));
      return { content, nextCursor: hasNext ? shown[shown.length - 1]![0] : null, hasNext, size: shown.length };
    },
    /** The member's plan, or undefined when it is not theirs (or does not exist). */
    detail(memberId: number, tripPlanId: number): Schemas['TripPlanDetailResponse'] | undefined {
      const row = detail.get(tripPlanId, memberId);
      if (!row) return undefined;
      const [id, chatRoomId, title, region, startDate, endDate, duration, peopleCount, themes, transportation, generationStatus, imageUrl, createdAt] = row;
      return {
        tripPlanId: id,
        chatRoomId,
        title,
        region,
        startDate,
        endDate,
        duration,
        peopleCount,
        themes: JSON.parse(themes) as Schemas['PlaceThemeType'][],
        transportation: transportation as Schemas['Transportation'],
        isCompleted: generationStatus === 'COMPLETED',
        generationStatus: generationStatus as Schemas['GenerationStatus'],
        imageUrl,
        createdAt: new Date(createdAt).toISOString(),
      };
    },
  };
}
