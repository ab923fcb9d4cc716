// The OpenAI planner and chat agent through the real `openai` SDK against a local fake server:
// structured output derived from the spec, validation with retries, prompt templates, streamed
// summaries, tool calls.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import type { components } from '../../generated/openapi.js';
import { createOpenAiChatAgent } from '../../src/chats/openaiChatAgent.js';
import type { ChatTurn } from '../../src/chats/chatAgent.js';
import type { DatabasePort } from '../../src/db/databasePort.js';
import { openSqliteDatabasePort } from '../../src/composition/openDatabase.js';
import { placesOfRegion, syncCatalogue, type PlaceRow } from '../../src/catalogue/placeRepository.js';
import { buildStrictSchema, dayPlanJsonSchema, loadOpenApiDocument } from '../../src/generation/openai/dayPlanJsonSchema.js';
import { createOpenAiClient } from '../../src/generation/openai/openaiClient.js';
import { createOpenAiPlanner } from '../../src/generation/openai/openaiPlanner.js';
import { PlannerError, type PlanRequest } from '../../src/generation/planner.js';
import type { PlannedDay } from '../../src/itinerary/plannedDay.js';
import { travelBetween } from '../../src/itinerary/travel.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createActivePromptTemplate } from '../../src/prompts/promptTemplateRepository.js';
import type { DayWithStops } from '../../src/trips/dailyPlanRepository.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fakeOpenAiServer.js';

type DailyPlanResponse = components['schemas']['DailyPlanResponse'];

const log = createLogger('silent');
let server: FakeOpenAiServer;
let database: DatabasePort;
let client: OpenAI;
let busan: PlaceRow[];
let sights: PlaceRow[];
let restaurants: PlaceRow[];

beforeEach(async () => {
  server = await startFakeOpenAiServer();
  database = openSqliteDatabasePort(':memory:');
  await syncCatalogue(database);
  client = createOpenAiClient({ apiKey: null, baseUrl: server.baseUrl, model: 'fake-model', maxAttempts: 3 });
  busan = await placesOfRegion(database, 'busan');
  sights = busan.filter((p) => p.kind === 'SIGHT');
  restaurants = busan.filter((p) => p.kind === 'RESTAURANT');
});

afterEach(async () => {
  await server.close();
  await database.close();
});

const request = (overrides: Partial<PlanRequest> = {}): PlanRequest => ({
  tripPlanId: 1,
  memberId: 1,
  region: 'Busan',
  startDate: '2026-05-01',
  duration: 1,
  themes: ['FAMOUS_SPOT', 'RESTAURANT'],
  peopleCount: 2,
  transportation: 'CAR',
  ...overrides,
});

const planner = (maxAttempts = 3) => createOpenAiPlanner({ db: database, client, model: 'fake-model', maxAttempts, log, retryDelayMs: 0 });

/** A DailyPlanResponse as a model would write it; only place ids, categories, title and description matter. */
function answer(placeIds: number[], title = 'Sea and markets'): string {
  const categories = ['MORNING', 'AFTERNOON', 'AFTERNOON', 'EVENING', 'EVENING', 'EVENING'] as const;
  const plan: DailyPlanResponse = {
    id: 99,
    dayNumber: 7,
    date: '2000-01-01',
    title,
    description: `  ## ${title}\nA lovely day.  `,
    scheduledPlaces: placeIds.map((id, i) => ({
      id: 100 + i,
      visitOrder: i + 1,
      category: categories[i]!,
      travelTime: null,
      travelDistance: null,
      transportation: 'CAR',
      place: {
        id,
        name: 'copied',
        address: '',
        latitude: 0,
        longitude: 0,
        description: '',
        imageUrl: null,
        operatingHours: null,
        holidayInfo: null,
        isMustVisit: false,
        themes: [],
      },
    })),
  };
  return JSON.stringify(plan);
}

const dayOne = () => [sights[0]!.id, restaurants[0]!.id, sights[1]!.id, restaurants[1]!.id];
const dayTwo = () => [sights[2]!.id, restaurants[2]!.id, sights[3]!.id, restaurants[3]!.id];

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const messagesOf = (i: number): { role: string; content: string }[] => server.requests[i].messages;

describe('OpenAI planner', () => {
  it('plans each day from the answer, with our travel times, dates and ids, asking with a strict schema from the spec', async () => {
    server.reply({ content: answer(dayOne(), 'Day one by the sea') }, { content: answer(dayTwo(), 'Day two in town') });
    const days = await collect(planner().plan(request({ duration: 2 }), new AbortController().signal));

    expect(days.map((d) => [d.dayNumber, d.date, d.title])).toEqual([
      [1, '2026-05-01', 'Day one by the sea'],
      [2, '2026-05-02', 'Day two in town'],
    ]);
    expect(days[0]!.description).toBe('## Day one by the sea\nA lovely day.');
    expect(days[0]!.stops.map((s) => s.placeId)).toEqual(dayOne());
    expect(days[0]!.stops.map((s) => s.category)).toEqual(['MORNING', 'AFTERNOON', 'AFTERNOON', 'EVENING']);
    const byId = new Map(busan.map((p) => [p.id, p]));
    const expected = dayOne().map((id, i, ids) => {
      if (i === 0) return { travelTime: null, travelDistance: null };
      const leg = travelBetween(byId.get(ids[i - 1]!)!, byId.get(id)!, 'CAR');
      return { travelTime: leg.minutes, travelDistance: leg.distanceMetres };
    });
    expect(days[0]!.stops.map(({ travelTime, travelDistance }) => ({ travelTime, travelDistance }))).toEqual(expected);

    expect(server.requests).toHaveLength(2);
    const first = server.requests[0];
    expect(first.model).toBe('fake-model');
    expect(first.stream).toBe(true);
    expect(first.response_format.type).toBe('json_schema');
    expect(first.response_format.json_schema.name).toBe('DailyPlanResponse');
    expect(first.response_format.json_schema.strict).toBe(true);
    expect(first.response_format.json_schema.schema).toEqual(dayPlanJsonSchema);
    expect(first.response_format.json_schema.schema.properties.scheduledPlaces.items.properties.place.properties.id.type).toBe('integer');
    // Day 2 is told about day 1 and is not offered its places again.
    const secondUser = messagesOf(1)[1]!.content;
    expect(secondUser).toContain(`day 1: ${byId.get(dayOne()[0]!)!.name}`);
    expect(secondUser).not.toContain(`{"id":${dayOne()[0]},`);
    expect(secondUser).toContain(`{"id":${dayTwo()[0]},`);
    expect(secondUser).toContain('day 2 of 2, date 2026-05-02');
  });

  it('retries after invalid JSON and tells the model what was wrong', async () => {
    server.reply({ content: '{"title": "oops"' }, { content: answer(dayOne()) });
    const days = await collect(planner().plan(request(), new AbortController().signal));
    expect(days).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    const retry = messagesOf(1);
    expect(retry).toHaveLength(4);
    expect(retry[2]).toMatchObject({ role: 'assistant', content: '{"title": "oops"' });
    expect(retry[3]!.role).toBe('user');
    expect(retry[3]!.content).toMatch(/not valid JSON/);
  });

  it('gives up with a PlannerError after exactly maxAttempts answers with unknown places', async () => {
    const unknown = answer([999_999, 888_888]);
    server.reply({ content: unknown }, { content: unknown }, { content: unknown }, { content: unknown });
    const run = collect(planner(3).plan(request(), new AbortController().signal));
    await expect(run).rejects.toBeInstanceOf(PlannerError);
    await expect(run).rejects.toThrow(/^The AI planner did not return a valid day plan: .*999999 is not one of the candidates/);
    expect(server.requests).toHaveLength(3);
    expect(server.pending()).toBe(1);
    expect(messagesOf(2).at(-1)!.content).toMatch(/888888 is not one of the candidates/);
  });

  it('rejects answers that break the contract or reuse a place', async () => {
    const broken = JSON.parse(answer(dayOne()));
    broken.scheduledPlaces[0].category = 'NIGHT';
    server.reply(
      { content: JSON.stringify(broken) },
      { content: answer(dayOne()) },
      { content: answer([dayOne()[0]!, ...dayTwo()]) },
      { content: answer(dayTwo()) },
    );
    const days = await collect(planner().plan(request({ duration: 2 }), new AbortController().signal));
    expect(days.map((d) => d.stops.map((s) => s.placeId))).toEqual([dayOne(), dayTwo()]);
    expect(messagesOf(1).at(-1)!.content).toMatch(/does not match DailyPlanResponse: \/scheduledPlaces\/0\/category/);
    expect(messagesOf(3).at(-1)!.content).toMatch(new RegExp(`place id ${dayOne()[0]} was already used on an earlier day`));
  });

  it('retries after an HTTP 500', async () => {
    server.reply({ status: 500 }, { content: answer(dayOne()) });
    const days = await collect(planner().plan(request(), new AbortController().signal));
    expect(days[0]!.stops).toHaveLength(4);
    expect(server.requests).toHaveLength(2);
    // Nothing to correct after a server failure: the same conversation is sent again.
    expect(messagesOf(1)).toEqual(messagesOf(0));
  });

  it('does not retry once aborted', async () => {
    server.reply({ content: answer(dayOne()), breakAfter: { deltas: 1, then: 'hang' } }, { content: answer(dayOne()) });
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    const run = collect(planner().plan(request(), controller.signal));
    await waitFor(() => server.requests.length === 1);
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('names the known regions for an unknown region', async () => {
    await expect(collect(planner().plan(request({ region: 'Atlantis' }), new AbortController().signal))).rejects.toThrow(
      /Unknown region "Atlantis".*Busan.*Seoul/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('uses the active TRIP_AGENT templates, and built-in defaults without them', async () => {
    server.reply({ content: answer(dayOne()) });
    await collect(planner().plan(request(), new AbortController().signal));
    expect(messagesOf(0)[0]).toMatchObject({ role: 'system', content: expect.stringContaining('travel planner') });
    expect(messagesOf(0)[1]!.content).toMatch(/^Plan the day described below/);

    await createActivePromptTemplate(database, { promptType: 'SYSTEM', agentType: 'TRIP_AGENT', prompt: 'ADMIN SYSTEM PROMPT', description: null }, Date.now());
    await createActivePromptTemplate(database, { promptType: 'USER', agentType: 'TRIP_AGENT', prompt: 'ADMIN USER PROMPT', description: null }, Date.now());
    server.reply({ content: answer(dayOne()) });
    await collect(planner().plan(request(), new AbortController().signal));
    const [system, user] = messagesOf(1);
    expect(system).toEqual({ role: 'system', content: 'ADMIN SYSTEM PROMPT' });
    expect(user!.content).toMatch(/^ADMIN USER PROMPT\n/);
    // The trip conditions and the answer rules are always there.
    expect(user!.content).toContain('- region: Busan');
    expect(user!.content).toContain('- transportation: CAR');
    expect(user!.content).toContain('must be the id of a candidate');
  });
});

describe('OpenAI day summary', () => {
  const day = (): PlannedDay => ({
    dayNumber: 1,
    date: '2026-05-01',
    title: 'Sea and markets',
    description: '## Sea and markets\nThe saved description.',
    stops: [
      { placeId: sights[0]!.id, category: 'MORNING', travelTime: null, travelDistance: null },
      { placeId: restaurants[0]!.id, category: 'AFTERNOON', travelTime: 12, travelDistance: 3400 },
    ],
  });

  it('streams the model text in several chunks, with the PLACE_SUMMARY_AGENT templates', async () => {
    await createActivePromptTemplate(
      database,
      { promptType: 'SYSTEM', agentType: 'PLACE_SUMMARY_AGENT', prompt: 'SUMMARY SYSTEM', description: null },
      Date.now(),
    );
    const text = 'Start at the **beach**, then lunch by the market, and end with a sunset walk.';
    server.reply({ content: text, chunks: 5 });
    const chunks = await collect(planner().summarize(day(), request(), new AbortController().signal));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.join('')).toBe(text);
    const sent = server.requests[0];
    expect(sent.stream).toBe(true);
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'SUMMARY SYSTEM' });
    expect(sent.messages[1].content).toMatch(/^Summarize this day/);
    expect(sent.messages[1].content).toContain(sights[0]!.name);
    expect(sent.messages[1].content).toContain(restaurants[0]!.name);
  });

  it('stops when aborted mid-stream', async () => {
    server.reply({ content: 'one two three four five six', chunks: 6, breakAfter: { deltas: 2, then: 'hang' } });
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    const received: string[] = [];
    const run = (async () => {
      for await (const chunk of planner().summarize(day(), request(), controller.signal)) {
        received.push(chunk);
        if (received.length === 2) controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(received).toHaveLength(2);
  });

  it('falls back to the day description when the model fails before any text', async () => {
    server.reply({ status: 500 });
    expect(await collect(planner().summarize(day(), request(), new AbortController().signal))).toEqual([day().description]);
  });

  it('fails with a PlannerError when the stream breaks midway', async () => {
    server.reply({ content: 'one two three four five six', chunks: 6, breakAfter: { deltas: 2, then: 'drop' } });
    const received: string[] = [];
    const run = (async () => {
      for await (const chunk of planner().summarize(day(), request(), new AbortController().signal)) received.push(chunk);
    })();
    await expect(run).rejects.toBeInstanceOf(PlannerError);
    expect(received).toHaveLength(2);
  });
});

describe('OpenAI chat agent', () => {
  const agent = () => createOpenAiChatAgent({ db: database, client, model: 'fake-model', log });

  function turn(content: string, scheduledPlaceId?: number): ChatTurn {
    const stops = dayOne().map((placeId, i) => ({
      id: 500 + i,
      dailyPlanId: 1,
      visitOrder: i + 1,
      category: 'MORNING' as const,
      travelTime: null,
      travelDistance: null,
      transportation: 'CAR',
      placeId,
      place: busan.find((p) => p.id === placeId)!,
    }));
    const days: DayWithStops[] = [
      { id: 1, tripPlanId: 1, dayNumber: 1, date: '2026-05-01', title: 'Sea and markets', description: '', summaryPending: false, stops },
    ];
    return { tripPlanId: 1, region: 'busan', content, days, ...(scheduledPlaceId === undefined ? {} : { scheduledPlaceId }) };
  }

  it('turns a swap_stops tool call into a swap edit', async () => {
    server.reply({ content: 'Sure, swapping them.', toolCall: { name: 'swap_stops', arguments: { dayNumber: 1, visitOrderA: 1, visitOrderB: 3 } } });
    const decision = await agent().decide(turn('please swap the first and third stop of day 1'), new AbortController().signal);
    expect(decision).toEqual({ edit: { kind: 'swap', dayNumber: 1, visitOrderA: 1, visitOrderB: 3 }, reply: 'Sure, swapping them.' });
    const sent = server.requests[0];
    expect(sent.stream).toBeFalsy();
    expect(sent.tools.map((t: any) => t.function.name)).toEqual(['swap_stops', 'replace_stop', 'remove_stop']);
    expect(sent.tools.every((t: any) => t.function.strict === true && t.function.parameters.additionalProperties === false)).toBe(true);
    expect(sent.messages[1].content).toContain(`1. ${busan.find((p) => p.id === dayOne()[0])!.name}`);
    expect(sent.messages[1].content).toContain('please swap the first and third stop of day 1');
  });

  it('answers in plain text without an edit when no tool is called, and sees the selected stop', async () => {
    await createActivePromptTemplate(database, { promptType: 'SYSTEM', agentType: 'CHAT_AGENT', prompt: 'CHAT SYSTEM', description: null }, Date.now());
    server.reply({ content: 'Haeundae is lovely in the morning.' });
    const decision = await agent().decide(turn('is this a good idea?', 502), new AbortController().signal);
    expect(decision).toEqual({ edit: null, reply: 'Haeundae is lovely in the morning.' });
    expect(server.requests[0].messages[0]).toEqual({ role: 'system', content: 'CHAT SYSTEM' });
    expect(server.requests[0].messages[1].content).toContain('selected stop: day 1, visit order 3');
  });

  it('refuses invalid tool arguments with a helpful reply', async () => {
    server.reply({ toolCall: { name: 'remove_stop', arguments: { dayNumber: 1, visitOrder: 0 } } });
    const decision = await agent().decide(turn('remove stop zero'), new AbortController().signal);
    expect(decision.edit).toBeNull();
    expect(decision.reply).toMatch(/visitOrder must be an integer of at least 1/);
  });
});

describe('day plan JSON schema', () => {
  it('is derived from the spec: a change to DailyPlanResponse or what it references changes it', () => {
    const spec = loadOpenApiDocument() as any;
    expect(buildStrictSchema(spec)).toEqual(dayPlanJsonSchema);
    expect(dayPlanJsonSchema.required).toEqual(Object.keys(spec.components.schemas.DailyPlanResponse.properties));

    const changed = structuredClone(spec);
    changed.components.schemas.DailyPlanResponse.properties.weather = { type: 'string', maxLength: 50 };
    changed.components.schemas.DailyPlanResponse.required.push('weather');
    changed.components.schemas.PlaceResponse.properties.rating = { type: 'number', format: 'double', minimum: 0 };
    const schema = buildStrictSchema(changed) as any;
    expect(schema.properties.weather).toEqual({ type: 'string' });
    expect(schema.required).toContain('weather');
    expect(schema.properties.scheduledPlaces.items.properties.place.properties.rating).toEqual({ type: 'number' });
    expect(schema.properties.scheduledPlaces.items.properties.place.required).toContain('rating');
    expect((dayPlanJsonSchema as any).properties.weather).toBeUndefined();
  });

  it('is strict-mode shaped: refs inlined, closed objects, no value constraints', () => {
    const text = JSON.stringify(dayPlanJsonSchema);
    for (const keyword of ['$ref', 'format', 'maxLength', 'minimum', 'maximum', 'maxItems', 'uniqueItems', 'examples']) {
      expect(text).not.toContain(`"${keyword}":`);
    }
    const objects: any[] = [];
    const walk = (node: any) => {
      if (node && typeof node === 'object') {
        if (node.type === 'object') objects.push(node);
        Object.values(node).forEach(walk);
      }
    };
    walk(dayPlanJsonSchema);
    expect(objects.length).toBe(3);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required).toEqual(Object.keys(object.properties));
    }
  });

  it('fails loudly on a keyword strict mode cannot express', () => {
    const changed = structuredClone(loadOpenApiDocument()) as any;
    changed.components.schemas.DailyPlanResponse.properties.title = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    expect(() => buildStrictSchema(changed)).toThrow(/keyword "oneOf" at DailyPlanResponse.properties.title/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition not met in time');
}
