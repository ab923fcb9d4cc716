// A write either commits or the client is told it did not. Storage fails for
// real here: the database at its size limit (PRAGMA max_page_count), database files the OS refuses
// to write (chattr +i, which stops root too), and a full tmpfs. HTTP answers 503 COMMON503 with
// Retry-After, a chat SEND that was not stored gets ERROR WS503 instead of a RECEIPT, /readyz is
// DOWN while writes fail and UP once they succeed again, generation ends with AI002 announcing only
// saved days, and the process keeps serving throughout.
import { jsonAt } from '../../conformance/specModel/index.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Planner } from '../../src/generation/planner.js';
import { connectStomp, wsUrl, type StompTestClient } from '../support/stompTestClient.js';
import { capDatabaseSize, makeImmutable, smallTmpfs, sqliteConnection } from '../support/storageFaults.js';
import { bodyOf, errorCodeOf, errorOf } from '../support/responseBody.js';
import { busanTrip, type TestResponse } from '../support/testApp.js';
import { startTestServer, type TestServer } from '../support/testServer.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trip-storage-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serverOn(dir: string, planner?: Planner): Promise<TestServer> {
  const s = await startTestServer({ DATA_DIR: dir, DATABASE_URL: path.join(dir, 'trips.sqlite') }, planner ? { planner } : {});
  cleanups.push(() => s.stop());
  return s;
}

async function stomp(s: TestServer, token: string): Promise<StompTestClient> {
  const client = await connectStomp(wsUrl(s.url), token);
  cleanups.push(() => client.disconnect());
  return client;
}

function expectStorageUnavailable(res: TestResponse): void {
  expect([res.status, errorCodeOf(res)]).toEqual([503, 'COMMON503']);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(errorOf(res).message).toMatch(/nothing was saved/);
}

async function userMessagesOf(s: TestServer, token: string, chatRoomId: number): Promise<string[]> {
  const contents: string[] = [];
  let cursor: number | null = null;
  do {
    const res: TestResponse = await s.request('GET', `/api/v1/chats/${chatRoomId}/messages`, { token, query: cursor ? { size: 100, cursor } : { size: 100 } });
    const page = bodyOf(res, 'listChatMessages', 200).data;
    contents.push(...page.content.filter((m) => m.messageType === 'USER').map((m) => m.content));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return contents;
}

describe('storage failures: a write commits or the client is told it did not', () => {
  it('a full database (max_page_count): writes answer 503 COMMON503 with Retry-After, nothing half-saved, /readyz DOWN until the space is back', async () => {
    const s = await serverOn(tempDir());
    const { accessToken } = await s.signIn('filler@example.com');
    expect((await s.request('GET', '/readyz')).status).toBe(200);
    const created: number[] = [];
    const first = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data.tripPlanId;
    created.push(first);
    const cap = capDatabaseSize(sqliteConnection(s.app.services.db));
    let refused: Awaited<ReturnType<typeof s.request>> | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const res = await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip });
      if (res.status === 201) created.push(bodyOf(res, 'createTripPlanSession', 201).data.tripPlanId);
      else refused = res;
    }
    expect(refused, 'the database never filled up').toBeDefined();
    expectStorageUnavailable(refused!);
    expect((await s.request('GET', '/readyz')).status).toBe(503);
    expect((await s.request('GET', '/healthz')).status).toBe(200);

    // Every 201 is a stored plan, and the refused one left nothing behind.
    const listed = await s.request('GET', '/api/v1/trips', { token: accessToken, query: { size: 100 } });
    const ids: number[] = [];
    for (let page = bodyOf(listed, 'listTripPlans', 200).data; ;) {
      ids.push(...page.content.map((p) => p.id));
      if (page.nextCursor === null) break;
      page = bodyOf(await s.request('GET', '/api/v1/trips', { token: accessToken, query: { size: 100, cursor: page.nextCursor } }), 'listTripPlans', 200).data;
    }
    expect(ids.sort((a, b) => a - b)).toEqual(created);

    cap.lift();
    expect((await s.request('GET', '/readyz')).status).toBe(200);
    expect((await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip })).status).toBe(201);
  });

  it('a chat SEND the full database cannot store gets ERROR WS503 with its receipt-id and no RECEIPT; the history holds exactly the receipted messages', async () => {
    const s = await serverOn(tempDir());
    const { accessToken } = await s.signIn('chatty@example.com');
    const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
    const client = await stomp(s, accessToken);
    const cap = capDatabaseSize(sqliteConnection(s.app.services.db));

    const receipted: string[] = [];
    let refused = false;
    for (let i = 0; i < 500 && !refused; i++) {
      const content = `message ${i} ${'m'.repeat(1900)}`;
      try {
        await client.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content, messageContentType: 'TEXT' }));
        receipted.push(content);
      } catch {
        refused = true;
      }
    }
    expect(refused, 'the database never filled up').toBe(true);
    expect(client.errors.map((e) => e.headers['error-code'])).toEqual(['WS503']);
    expect(client.errors[0]!.headers['receipt-id']).toBe(`r-${receipted.length + 1}`);

    cap.lift();
    expect(await userMessagesOf(s, accessToken, plan.chatRoomId)).toEqual([...receipted].reverse());
  });

  it('generation on a database that fills up mid-run: the day that cannot be saved ends the run with AI002, every announced day is saved, the plan is FAILED', async () => {
    let cap: { lift(): void } | undefined;
    let s!: TestServer;
    const planner: Planner = {
      name: 'fills-the-disk',
      async *plan(request) {
        const db = s.app.services.db;
        const placeIds = (await db.run((q) => q.select({ id: db.t.places.id }).from(db.t.places).limit(3).execute())).map((p) => p.id);
        for (let dayNumber = 1; dayNumber <= request.duration; dayNumber++) {
          // The disk fills up after two days; day 3 is too big for the space left.
          if (dayNumber === 3) cap = capDatabaseSize(sqliteConnection(s.app.services.db));
          yield {
            dayNumber,
            date: request.startDate,
            title: `Day ${dayNumber}`,
            description: `### Day ${dayNumber}\n${'A long day. '.repeat(1500)}`,
            stops: placeIds.map((placeId, i) => ({ placeId, category: 'MORNING', travelTime: i === 0 ? null : 5, travelDistance: i === 0 ? null : 300 })),
          };
        }
      },
      async *summarize(day) {
        yield `Day ${day.dayNumber}.`;
      },
    };
    s = await serverOn(tempDir(), planner);
    const { accessToken } = await s.signIn('generator@example.com');
    const plan = bodyOf(
      await s.request('POST', '/api/v1/trips', { token: accessToken, body: { ...busanTrip, duration: 5 } }),
      'createTripPlanSession',
      201,
    ).data;
    const client = await stomp(s, accessToken);
    await client.subscribe(`/user/sub/schedule/${plan.tripPlanId}`);
    await client.subscribe(`/user/sub/chat/${plan.chatRoomId}`);
    await client.subscribe(`/user/sub/errors/${plan.chatRoomId}`);
    expect((await s.request('POST', `/api/v1/trips/${plan.tripPlanId}`, { token: accessToken })).status).toBe(200);

    const failure = await client.waitFor((m) => jsonAt(m.body, 'code') === 'AI002');
    expect(jsonAt(failure.body, 'message')).toMatch(/could not be saved/);
    await s.app.worker.idle();
    const announced = client.messages.filter((m) => jsonAt(m.body, 'type') === 'DAILY_PLAN_GENERATED').map((m) => jsonAt(m.body, 'dailyPlan', 'dayNumber'));
    expect(announced).toEqual([1, 2]);
    expect(client.messages.some((m) => jsonAt(m.body, 'messageStreamType') === 'COMPLETED')).toBe(false);

    cap!.lift();
    const days = await s.request('GET', `/api/v1/trips/daily-plans/${plan.tripPlanId}`, { token: accessToken });
    expect(bodyOf(days, 'listDailyPlans', 200).data.map((d) => d.dayNumber)).toEqual([1, 2]);
    const after = await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: accessToken });
    expect(bodyOf(after, 'getTripPlan', 200).data.generationStatus).toBe('FAILED');
  });

  describe('database files the OS refuses to write (chattr +i)', () => {
    it('dev-login, create, chat SEND and /readyz refuse while the files are immutable, and work again after', async (context) => {
      const dir = tempDir();
      const s = await serverOn(dir);
      const { accessToken } = await s.signIn('reader@example.com');
      const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
      const client = await stomp(s, accessToken);
      const file = path.join(dir, 'trips.sqlite');
      const immutable = makeImmutable([file, `${file}-wal`]);
      if (!immutable) return context.skip('chattr +i does not work here (needs root and a file system with the immutable attribute)');
      cleanups.push(() => immutable.restore());

      // The commit of INSERT … RETURNING fails after the row was read: it must not be receipted.
      await expect(
        client.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'Is this kept?', messageContentType: 'TEXT' })),
      ).rejects.toThrow();
      expect(client.errors.map((e) => e.headers['error-code'])).toEqual(['WS503']);
      expectStorageUnavailable(await s.request('POST', '/api/v1/auth/dev-login', { body: { email: 'newcomer@example.com' } }));
      expectStorageUnavailable(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }));
      expectStorageUnavailable(await s.request('PATCH', `/api/v1/trips/${plan.tripPlanId}`, { token: accessToken, body: { title: 'Renamed' } }));
      expect((await s.request('GET', '/readyz')).status).toBe(503);

      immutable.restore();
      expect((await s.request('GET', '/readyz')).status).toBe(200);
      const login = await s.request('POST', '/api/v1/auth/dev-login', { body: { email: 'newcomer@example.com' } });
      const { accessToken: newcomer } = bodyOf(login, 'devLogin', 200).data;
      expect(bodyOf(await s.request('GET', '/api/v1/members/me', { token: newcomer }), 'getMe', 200).data.email).toBe('newcomer@example.com');
      expect(await userMessagesOf(s, accessToken, plan.chatRoomId)).toEqual([]);
      expect(bodyOf(await s.request('GET', `/api/v1/trips/${plan.tripPlanId}`, { token: accessToken }), 'getTripPlan', 200).data.title).not.toBe('Renamed');
    });
  });

  describe('a full file system (a small tmpfs filled to the last byte)', () => {
    it('writes answer 503 while the disk is full, /readyz follows, and everything works again once space is freed', async (context) => {
      const tmpfs = smallTmpfs(16 * 1024 * 1024);
      if (!tmpfs) return context.skip('mounting a tmpfs is not allowed here');
      cleanups.push(() => tmpfs.unmount());
      const s = await serverOn(tmpfs.dir);
      const { accessToken } = await s.signIn('full@example.com');
      const plan = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data;
      const client = await stomp(s, accessToken);
      tmpfs.fill();

      expectStorageUnavailable(await s.request('POST', '/api/v1/auth/dev-login', { body: { email: 'nospace@example.com' } }));
      expectStorageUnavailable(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }));
      await expect(
        client.send(`/pub/chat/${plan.chatRoomId}/message`, JSON.stringify({ content: 'Is this kept?', messageContentType: 'TEXT' })),
      ).rejects.toThrow();
      expect(client.errors.map((e) => e.headers['error-code'])).toEqual(['WS503']);
      expect((await s.request('GET', '/readyz')).status).toBe(503);

      tmpfs.empty();
      expect((await s.request('GET', '/readyz')).status).toBe(200);
      expect((await s.request('POST', '/api/v1/auth/dev-login', { body: { email: 'nospace@example.com' } })).status).toBe(200);
      expect(await userMessagesOf(s, accessToken, plan.chatRoomId)).toEqual([]);
    });
  });
});
