// `npm run bench:serializer`: writing the JSON of one documented response with its generated writer
// (generated/serializers.ts) next to JSON.stringify, for the responses the service sends most: a
// trip list page of 20 plans (the list benchmark's page) and a chat history page of 20 messages.
// Mean µs per response over BENCH_ROUNDS (default 5) rounds of 100,000 after a warm-up, in turns.
import { responseSerializers } from '../generated/serializers.js';
import { median } from './bench/loadTest.js';
import { machineLines } from './bench/machine.js';
import { textTable } from './bench/textTable.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const perRound = 100_000;

const tripPage = {
  success: true,
  status: 200,
  data: {
    content: Array.from({ length: 20 }, (_, i) => ({
      id: 9_000 + i,
      memberId: 1,
      chatRoomId: 19_000 + i,
      title: `Busan trip ${i}`,
      startDate: '2026-05-01',
      isCompleted: i % 3 !== 0,
      region: 'Busan',
      imageUrl: i % 2 === 0 ? null : 'https://images.example.com/busan/haeundae.jpg',
    })),
    nextCursor: 9_019,
    hasNext: true,
    size: 20,
  },
};
const chatPage = {
  success: true,
  status: 200,
  data: {
    content: Array.from({ length: 20 }, (_, i) => ({
      id: 50_000 + i,
      messageType: i % 2 === 0 ? 'USER' : 'ASSISTANT',
      content: i % 2 === 0 ? 'Can we swap day 2 for something by the sea?' : 'Day 2 now starts at Haeundae Beach and ends at the Gwangalli bridge at night.',
      messageContentType: 'TEXT',
      mediaUrl: null,
      createdAt: '2026-05-01T09:00:00.000Z',
    })),
    nextCursor: 50_019,
    hasNext: true,
    size: 20,
  },
};

const cases = [
  { name: 'listTripPlans 200 (20 plans)', value: tripPage, write: responseSerializers.listTripPlans![200]! },
  { name: 'listChatMessages 200 (20 messages)', value: chatPage, write: responseSerializers.listChatMessages![200]! },
];

function meanUs(write: (value: unknown) => string, value: unknown): number {
  let length = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < perRound; i++) length += write(value).length;
  const us = Number(process.hrtime.bigint() - started) / 1000 / perRound;
  if (length === 0) throw new Error('nothing written');
  return us;
}

out('== JSON of a response: generated writer vs JSON.stringify (mean µs per response, median over rounds)');
for (const line of machineLines()) out(line);
const rows: string[][] = [];
for (const c of cases) {
  if (JSON.stringify(JSON.parse(c.write(c.value))) !== JSON.stringify(c.value)) throw new Error(`${c.name}: the writer's JSON differs from the value`);
  const writer: number[] = [];
  const stringify: number[] = [];
  meanUs(c.write, c.value);
  meanUs(JSON.stringify, c.value);
  for (let r = 0; r < rounds; r++) {
    writer.push(meanUs(c.write, c.value));
    stringify.push(meanUs(JSON.stringify, c.value));
  }
  rows.push([
    c.name,
    `${JSON.stringify(c.value).length} B`,
    median(stringify).toFixed(2),
    median(writer).toFixed(2),
    (median(writer) / median(stringify)).toFixed(2),
  ]);
}
out(textTable(['response', 'size', 'JSON.stringify µs', 'writer µs', 'writer ÷ stringify'], rows));
