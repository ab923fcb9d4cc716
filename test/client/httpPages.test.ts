// pages() walks a cursor-paged list to its end: each page's nextCursor goes into the cursor parameter
// the operation's x-paging names, and the walk stops at the page that says it is the last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationFailedError, type HttpClient } from '../../client/src/index.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { signedInClient, type SentRequest } from './httpTestClient.js';

const trip = { themes: ['RESTAURANT' as const], startDate: '2027-01-10', duration: 1, region: 'Busan', peopleCount: 1 };

let server: TestServer;
let client: HttpClient;
let sent: SentRequest[];
const created: number[] = [];
beforeAll(async () => {
  server = await startTestServer();
  ({ client, sent } = await signedInClient(server, 'pages@example.com'));
  for (let i = 0; i < 25; i++) {
    const plan = await client.operations.createTripPlanSession({ body: trip });
    if (!plan.ok) throw new Error(`createTripPlanSession: ${plan.status}`);
    created.push(plan.data.tripPlanId);
  }
});
afterAll(() => server.stop());

describe('pages()', () => {
  it('yields all 25 plans over pages of 10, in the list order, each once, and stops after the last page', async () => {
    sent.length = 0;
    const ids: number[] = [];
    for await (const plan of client.pages('listTripPlans', { query: { size: 10 } })) ids.push(plan.id);

    // Newest first (the default sort, createdAt:desc); all were created at the same instant, so by id, descending.
    expect(ids).toEqual([...created].reverse());
    expect(new Set(ids).size).toBe(25);
    expect(sent.map((r) => r.target)).toEqual(['/api/v1/trips?size=10', `/api/v1/trips?size=10&cursor=${ids[9]}`, `/api/v1/trips?size=10&cursor=${ids[19]}`]);
  });

  it('keeps the rest of the query on every page (here the sort)', async () => {
    const ids: number[] = [];
    for await (const plan of client.pages('listTripPlans', { query: { size: 7, sort: 'createdAt:asc' } })) ids.push(plan.id);
    expect(ids).toEqual(created);
  });

  it('stops early when the caller stops: no page beyond the one it read from is fetched', async () => {
    sent.length = 0;
    for await (const plan of client.pages('listTripPlans', { query: { size: 10 } })) {
      if (plan.id === created[20]) break;
    }
    expect(sent).toHaveLength(1);
  });

  it('rejects with OperationFailedError when a page fails', async () => {
    const walk = async () => {
      for await (const message of client.pages('listChatMessages', { path: { chatRoomId: 999_999 } })) expect(message).toBeUndefined();
    };
    const error = await walk().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationFailedError);
    expect((error as OperationFailedError).result).toMatchObject({ status: 404, error: { code: 'CHAT301' } });
  });
});
