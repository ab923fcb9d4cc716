// The Fastify peer's trip plans, from the engine's raw rows (peerDatabase.ts): a list page is the
// service's own keyset SQL (src/trips/tripPlanList.ts: `(field, id)` after the cursor's, size + 1
// rows, joined to chat_room), the cursor's key from one lookup of the member's plan, as the service
// reads it; the detail is one statement of the plan with its chat room. Both made into the bodies of
// openapi.yaml here.
import type { components } from '../../generated/openapi.js';
import type { PeerDatabase } from './peerDatabase.js';

type Schemas = components['schemas'];
type Page = Schemas['TripPlanPageEnvelope']['data'];

export function peerTripStatements(database: PeerDatabase) {
  return {
    /** One page in the order `sort` (`field:direction`, already validated), or null when the cursor is not one of the member's plans. */
    async page(memberId: number, sort: string, size: number, cursor: number | undefined): Promise<Page | null> {
      const after = cursor === undefined ? undefined : await database.cursorRow(memberId, cursor);
      if (cursor !== undefined && !after) return null;
      const rows = await database.pageRows(sort, memberId, size + 1, after);
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
    async detail(memberId: number, tripPlanId: number): Promise<Schemas['TripPlanDetailResponse'] | undefined> {
      const row = await database.detailRow(memberId, tripPlanId);
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
        themes,
        transportation: transportation as Schemas['Transportation'],
        isCompleted: generationStatus === 'COMPLETED',
        generationStatus: generationStatus as Schemas['GenerationStatus'],
        imageUrl,
        createdAt: new Date(createdAt).toISOString(),
      };
    },
  };
}
