// The OpenAI planner: asks the model for one day at a time as a DailyPlanResponse (structured
// output), checks the answer against the contract and the candidate places, and keeps only the
// decisions (which places, in which order, when, title, text). Travel times, dates and ids are ours,
// so a model cannot put an unknown place or an impossible travel time into a saved itinerary.
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { components } from '../../../generated/openapi.js';
import { schemaValidators } from '../../../generated/validators.js';
import type { DatabasePort } from '../../db/databasePort.js';
import { withTraceIds } from '../../kernel/traceContext.js';
import type { Logger } from '../../kernel/logger.js';
import { findActivePromptTemplate } from '../../prompts/promptTemplateRepository.js';
import type { PlaceRow } from '../../catalogue/placeRepository.js';
import { abortableDelay } from '../abortableDelay.js';
import { knownRegionNames, regionDisplayName, resolveRegion } from '../../catalogue/placeCatalogue.js';
import { placesByIds, placesOfRegion } from '../../catalogue/placeRepository.js';
import type { PlannedDay, PlannedStop } from '../../itinerary/plannedDay.js';
import { addDays } from '../../itinerary/tripDates.js';
import { PlannerError, type Planner, type PlanRequest } from '../planner.js';
import { travelBetween } from '../../itinerary/travel.js';
import { dayPlanJsonSchema } from './dayPlanJsonSchema.js';

type DailyPlanResponse = components['schemas']['DailyPlanResponse'];

export interface OpenAiPlannerDeps {
  db: DatabasePort;
  client: OpenAI;
  model: string;
  /** attempts per day in total, API failures and rejected answers alike */
  maxAttempts: number;
  /** with tracing on, its lines carry the trace and span id of the call (tracedPlanner.ts's span) */
  log: Logger;
  /** pause before retrying after an API failure, times the attempt number (tests pass 0) */
  retryDelayMs?: number;
}

const DEFAULT_TRIP_SYSTEM = [
  'You are an experienced local travel planner for trips in South Korea.',
  'You plan one day of an itinerary at a time, using only the candidate places you are given,',
  'and you answer with a single JSON object in the requested format, nothing else.',
].join(' ');

const DEFAULT_TRIP_USER = [
  'Plan the day described below with 4 to 6 stops in a sensible geographic order, for example:',
  'a MORNING sight, a lunch restaurant in the AFTERNOON, an AFTERNOON sight and a dinner restaurant in the EVENING,',
  'with one more sight where time allows. Prefer places that match the themes, keep travel between stops short,',
  'and give the day a short title and a friendly markdown description of a few sentences.',
].join(' ');

const DEFAULT_SUMMARY_SYSTEM = 'You write short, friendly markdown summaries of one day of a trip itinerary for the traveller.';

const DEFAULT_SUMMARY_USER = [
  'Summarize this day of the itinerary in a few sentences of markdown: what the traveller will see and eat, in order,',
  'and how they move between stops. Mention only the stops listed.',
].join(' ');

// The part of the request no template may drop: without it the answer cannot pass our checks.
const ANSWER_RULES = [
  'Answer rules:',
  '- scheduledPlaces[].place.id must be the id of a candidate above; never use a place twice.',
  '- List the stops in visit order, with visitOrder 1, 2, 3, … and a category (MORNING, AFTERNOON or EVENING).',
  '- The id of the day and of each stop may be any positive integer: they are replaced.',
  "- travelTime and travelDistance may be null: they are recomputed. Use the trip's transportation.",
  '- Other place fields are ignored: copy the candidate\'s name and themes, use "" for address and description,',
  '  null for imageUrl, operatingHours and holidayInfo, false for isMustVisit.',
].join('\n');

async function activePrompt(
  db: DatabasePort,
  promptType: 'SYSTEM' | 'USER',
  agentType: 'TRIP_AGENT' | 'PLACE_SUMMARY_AGENT',
  fallback: string,
): Promise<string> {
  return (await findActivePromptTemplate(db, promptType, agentType))?.prompt ?? fallback;
}

function shortText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function candidateLine(place: PlaceRow): string {
  return JSON.stringify({
    id: place.id,
    name: place.name,
    kind: place.kind,
    themes: place.themes,
    latitude: place.latitude,
    longitude: place.longitude,
    visitMinutes: place.visitMinutes,
    about: shortText(place.description, 140),
  });
}

interface DayContext {
  request: PlanRequest;
  regionName: string;
  dayNumber: number;
  date: string;
  previousDays: string[][];
  candidates: PlaceRow[];
}

function dayPrompt(template: string, ctx: DayContext): string {
  const { request } = ctx;
  const previous =
    ctx.previousDays.length === 0 ? 'none (this is the first day)' : ctx.previousDays.map((names, i) => `day ${i + 1}: ${names.join(', ')}`).join('; ');
  return [
    template,
    '',
    'Trip conditions:',
    `- region: ${ctx.regionName}`,
    `- day ${ctx.dayNumber} of ${request.duration}, date ${ctx.date}`,
    `- themes: ${request.themes.length > 0 ? request.themes.join(', ') : 'any'}`,
    `- people: ${request.peopleCount}`,
    `- transportation: ${request.transportation}`,
    `- places of the previous days: ${previous}`,
    '',
    'Candidate places (one JSON object per line):',
    ...ctx.candidates.map(candidateLine),
    '',
    ANSWER_RULES,
    `Answer with one DailyPlanResponse for day ${ctx.dayNumber}.`,
  ].join('\n');
}

type Checked = { ok: true; answer: DailyPlanResponse } | { ok: false; problem: string };

/** Everything wrong with an answer, in words the model can act on. */
function checkAnswer(content: string, candidateIds: ReadonlySet<number>, usedIds: ReadonlySet<number>): Checked {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    return { ok: false, problem: `the answer is not valid JSON (${(error as Error).message})` };
  }
  const validate = schemaValidators.openapi.DailyPlanResponse;
  if (!validate(parsed)) {
    const errors = (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    return { ok: false, problem: `the answer does not match DailyPlanResponse: ${errors.join('; ')}` };
  }
  const answer = parsed as DailyPlanResponse;
  if (answer.scheduledPlaces.length === 0) return { ok: false, problem: 'scheduledPlaces is empty; plan at least one stop' };
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const { place } of answer.scheduledPlaces) {
    if (usedIds.has(place.id)) problems.push(`place id ${place.id} was already used on an earlier day`);
    else if (!candidateIds.has(place.id)) problems.push(`place id ${place.id} is not one of the candidates`);
    else if (seen.has(place.id)) problems.push(`place id ${place.id} appears more than once`);
    seen.add(place.id);
  }
  return problems.length > 0 ? { ok: false, problem: problems.join('; ') } : { ok: true, answer };
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? `the AI service failed (${error.message})` : 'the AI service failed';
}

// An answer that came back but cannot be used as is; its text goes back to the model.
class RejectedAnswer extends Error {
  constructor(
    readonly content: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** The streamed answer's text; the SDK ends a stream quietly on abort, so that is checked here. */
async function streamAnswer(deps: OpenAiPlannerDeps, messages: ChatCompletionMessageParam[], signal: AbortSignal): Promise<string> {
  const stream = await deps.client.chat.completions.create(
    {
      model: deps.model,
      messages,
      stream: true,
      response_format: { type: 'json_schema', json_schema: { name: 'DailyPlanResponse', strict: true, schema: dayPlanJsonSchema } },
    },
    { signal },
  );
  let content = '';
  let refusal = '';
  let finishReason: string | null = null;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? '';
    refusal += choice?.delta.refusal ?? '';
    finishReason = choice?.finish_reason ?? finishReason;
  }
  if (signal.aborted) throw signal.reason;
  if (refusal) throw new RejectedAnswer(content, `the model refused: ${refusal}`);
  if (finishReason === 'length') throw new RejectedAnswer(content, 'the answer was cut off (too long); keep the description shorter');
  return content;
}

async function askForDay(deps: OpenAiPlannerDeps, ctx: DayContext, usedIds: ReadonlySet<number>, signal: AbortSignal): Promise<DailyPlanResponse> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: await activePrompt(deps.db, 'SYSTEM', 'TRIP_AGENT', DEFAULT_TRIP_SYSTEM) },
    { role: 'user', content: dayPrompt(await activePrompt(deps.db, 'USER', 'TRIP_AGENT', DEFAULT_TRIP_USER), ctx) },
  ];
  const candidateIds = new Set(ctx.candidates.map((p) => p.id));
  let problem = 'no attempt was made';
  for (let attempt = 1; attempt <= deps.maxAttempts; attempt++) {
    if (signal.aborted) throw signal.reason;
    let content: string;
    try {
      content = await streamAnswer(deps, messages, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof RejectedAnswer) {
        problem = error.problem;
        messages.push({ role: 'assistant', content: error.content || '(empty)' }, { role: 'user', content: retryMessage(problem, ctx.dayNumber) });
      } else {
        // API and network failures: the conversation is unchanged, just ask again after a pause.
        problem = describeFailure(error);
        withTraceIds(deps.log).warn({ err: error, attempt, dayNumber: ctx.dayNumber }, 'openai day plan request failed');
        if (attempt < deps.maxAttempts) await abortableDelay((deps.retryDelayMs ?? 1000) * attempt, signal);
      }
      continue;
    }
    const checked = checkAnswer(content, candidateIds, usedIds);
    if (checked.ok) return checked.answer;
    problem = checked.problem;
    withTraceIds(deps.log).warn({ attempt, dayNumber: ctx.dayNumber, problem }, 'openai day plan rejected');
    messages.push({ role: 'assistant', content }, { role: 'user', content: retryMessage(problem, ctx.dayNumber) });
  }
  throw new PlannerError(`The AI planner did not return a valid day plan: ${problem} (day ${ctx.dayNumber}, ${deps.maxAttempts} attempts).`);
}

function retryMessage(problem: string, dayNumber: number): string {
  return `That answer cannot be used: ${problem}. Answer again with a corrected DailyPlanResponse for day ${dayNumber}, following the answer rules.`;
}

function toPlannedDay(answer: DailyPlanResponse, ctx: DayContext, placeById: ReadonlyMap<number, PlaceRow>): PlannedDay {
  const route = answer.scheduledPlaces.map((stop) => ({ category: stop.category, place: placeById.get(stop.place.id)! }));
  const stops: PlannedStop[] = route.map(({ category, place }, i) => {
    const previous = i > 0 ? route[i - 1]!.place : null;
    if (!previous) return { placeId: place.id, category, travelTime: null, travelDistance: null };
    const { minutes, distanceMetres } = travelBetween(previous, place, ctx.request.transportation);
    return { placeId: place.id, category, travelTime: minutes, travelDistance: distanceMetres };
  });
  const title = answer.title.trim() || `Day ${ctx.dayNumber} in ${ctx.regionName}`;
  const description = answer.description.trim() || route.map(({ category, place }) => `- **${category}** ${place.name}`).join('\n');
  return { dayNumber: ctx.dayNumber, date: ctx.date, title, description, stops };
}

async function* planDays(deps: OpenAiPlannerDeps, request: PlanRequest, signal: AbortSignal): AsyncGenerator<PlannedDay> {
  const region = resolveRegion(request.region);
  if (!region) throw new PlannerError(`Unknown region "${request.region}". Known regions: ${knownRegionNames().join(', ')}.`);
  const regionPlaces = await placesOfRegion(deps.db, region);
  const placeById = new Map(regionPlaces.map((p) => [p.id, p]));
  const usedIds = new Set<number>();
  const previousDays: string[][] = [];
  for (let dayNumber = 1; dayNumber <= request.duration; dayNumber++) {
    if (signal.aborted) throw signal.reason;
    const candidates = regionPlaces.filter((p) => !usedIds.has(p.id));
    if (candidates.length === 0) throw new PlannerError(`${regionDisplayName(region)} has no places left for day ${dayNumber}; try a shorter trip.`);
    const ctx: DayContext = {
      request,
      regionName: regionDisplayName(region),
      dayNumber,
      date: addDays(request.startDate, dayNumber - 1),
      previousDays,
      candidates,
    };
    const day = toPlannedDay(await askForDay(deps, ctx, usedIds, signal), ctx, placeById);
    for (const stop of day.stops) usedIds.add(stop.placeId);
    previousDays.push(day.stops.map((s) => placeById.get(s.placeId)!.name));
    yield day;
  }
}

async function summaryPrompt(db: DatabasePort, day: PlannedDay, request: PlanRequest): Promise<string> {
  const rows = await placesByIds(
    db,
    day.stops.map((s) => s.placeId),
  );
  const byId = new Map(rows.map((p) => [p.id, p]));
  const lines = day.stops.map((stop, i) => {
    const place = byId.get(stop.placeId);
    const travel = stop.travelTime === null ? 'start of the day' : `${stop.travelTime} min (${stop.travelDistance} m) from the previous stop`;
    return `${i + 1}. [${stop.category}] ${place?.name ?? `place ${stop.placeId}`} — ${travel}${place ? ` — ${shortText(place.description, 160)}` : ''}`;
  });
  return [
    await activePrompt(db, 'USER', 'PLACE_SUMMARY_AGENT', DEFAULT_SUMMARY_USER),
    '',
    `Day ${day.dayNumber} of ${request.duration} in ${regionDisplayName(resolveRegion(request.region) ?? request.region)}, ${day.date}: ${day.title}`,
    `Transportation: ${request.transportation}; people: ${request.peopleCount}`,
    'Stops:',
    ...lines,
  ].join('\n');
}

async function* summarizeDay(deps: OpenAiPlannerDeps, day: PlannedDay, request: PlanRequest, signal: AbortSignal): AsyncGenerator<string> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: await activePrompt(deps.db, 'SYSTEM', 'PLACE_SUMMARY_AGENT', DEFAULT_SUMMARY_SYSTEM) },
    { role: 'user', content: await summaryPrompt(deps.db, day, request) },
  ];
  let yielded = false;
  try {
    const stream = await deps.client.chat.completions.create({ model: deps.model, messages, stream: true }, { signal });
    let finished = false;
    for await (const chunk of stream) {
      finished ||= Boolean(chunk.choices[0]?.finish_reason);
      const delta = chunk.choices[0]?.delta.content;
      if (!delta) continue;
      yielded = true;
      yield delta;
    }
    // A connection closed cleanly but early ends the SDK's stream without an error.
    if (!finished && !signal.aborted) throw new Error('the summary stream ended before the model finished');
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (yielded) throw new PlannerError(`The AI planner could not finish the summary of day ${day.dayNumber}.`);
    // A summary is a nicety: the day is already saved, so its own description stands in.
    withTraceIds(deps.log).warn({ err: error, dayNumber: day.dayNumber }, 'openai day summary failed; using the day description');
  }
  if (signal.aborted) throw signal.reason;
  if (!yielded) yield day.description;
}

export function createOpenAiPlanner(deps: OpenAiPlannerDeps): Planner {
  return {
    name: 'openai',
    plan: (request, signal) => planDays(deps, request, signal),
    summarize: (day, request, signal) => summarizeDay(deps, day, request, signal),
  };
}
