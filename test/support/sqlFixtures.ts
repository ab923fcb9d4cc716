// Rows for the tests of statements (the engine statement contracts): members, plans with their chat
// rooms, messages, sessions and places, written through the port like the service's own.
import type { DatabasePort } from '../../src/db/databasePort.js';
import { insertChatMessage } from '../../src/chats/chatRepository.js';
import { insertTripPlan, type TripPlanWithRoom } from '../../src/trips/tripPlanRepository.js';

export const T0 = 1_700_000_000_000;

export async function addMember(db: DatabasePort, email: string): Promise<number> {
  const { members } = db.t;
  const [row] = await db.run((q) =>
    q.insert(members).values({ email, name: email, provider: 'test', createdAt: T0, updatedAt: T0 }).returning({ id: members.id }),
  );
  return row!.id;
}

export function addPlan(
  db: DatabasePort,
  memberId: number,
  { createdAt = T0, startDate = '2026-05-01', title = 'Busan, 3 days' }: { createdAt?: number; startDate?: string; title?: string } = {},
): Promise<TripPlanWithRoom> {
  return insertTripPlan(db, {
    memberId,
    title,
    region: 'Busan',
    startDate,
    endDate: startDate,
    duration: 3,
    peopleCount: 2,
    themes: ['RESTAURANT'],
    transportation: 'WALKING',
    generationStatus: 'PENDING',
    createdAt,
    updatedAt: createdAt,
  });
}

export async function addMessage(db: DatabasePort, chatRoomId: number, content: string, createdAt = T0): Promise<number> {
  return (await insertChatMessage(db, { chatRoomId, messageType: 'USER', content, createdAt })).id;
}

export async function addSession(
  db: DatabasePort,
  memberId: number,
  session: { id: string; expiresAt: number; revokedAt?: number; role?: 'MEMBER' | 'ADMIN' },
): Promise<void> {
  const { authSessions } = db.t;
  await db.run((q) =>
    q
      .insert(authSessions)
      .values({ refreshJti: `${session.id}-refresh`, createdAt: T0, memberId, ...session })
      .returning({ id: authSessions.id }),
  );
}

export async function addPlaces(db: DatabasePort, count: number): Promise<number[]> {
  const { places } = db.t;
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const [row] = await db.run((q) =>
      q
        .insert(places)
        .values({
          key: `fixture-spot-${n}`,
          region: 'busan',
          name: `Spot ${n}`,
          address: 'Busan',
          latitude: 35.1,
          longitude: 129.03,
          description: 'A spot.',
          isMustVisit: false,
          themes: ['HEALING'],
          kind: 'SIGHT',
          visitMinutes: 45,
        })
        .returning({ id: places.id }),
    );
    ids.push(row!.id);
  }
  return ids;
}
