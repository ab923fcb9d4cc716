// A whole generation with the client package: sign in, create a plan, stream its days. Usage:
//   tsx client/examples/streamGeneration.ts <http base URL> [ws URL ...]
// With several ws URLs, each reconnect goes to the next one (instances behind no load balancer).
import { WebSocket } from 'ws';
import { createTripClient } from '@trip-itinerary/client';

const [baseUrl = 'http://localhost:8080', ...webSocketUrls] = process.argv.slice(2);
let connects = 0;
const client = createTripClient({
  baseUrl,
  webSocket: WebSocket,
  ...(webSocketUrls.length > 0 ? { webSocketUrl: () => webSocketUrls[connects++ % webSocketUrls.length]! } : {}),
});
await client.operations.devLogin({ body: { email: 'example@example.com' } });
const created = await client.operations.createTripPlanSession({
  body: { themes: ['FAMOUS_SPOT'], startDate: '2026-12-24', duration: 3, region: 'Busan', peopleCount: 2 },
});
if (!created.ok) throw new Error(`create: ${created.status} ${created.error?.code}`);
(await client.realtime()).on('connected', ({ url, reconnected }) => reconnected && console.log(`reconnected to ${url}`));
const outcome = await client.generate(created.data, {
  refetch: true,
  onDay: (m) => 'dailyPlan' in m && console.log(`${m.type} day ${m.dailyPlan.dayNumber}: ${m.dailyPlan.title}`),
  onContinuityLost: (e) => console.log(`messages lost (${e.reason}); state read again with ${e.rebuildWith.join(', ')}`),
});
console.log(`run ${outcome}`);
await client.close();
