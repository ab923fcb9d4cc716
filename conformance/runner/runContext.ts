// What every phase shares: the spec, the server under test, two signed-in users and a trip plan of
// each (so operations can be called on real ids, and on someone else's ids).
import { fillTemplate, jsonAt, numberOrUndefined, objectOrEmpty, type Json, type JsonObject, type OperationFact } from '../specModel/index.js';
import type { PhaseRecorder } from './checks.js';
import type { FaultHook } from './faultHooks.js';
import { checkResponse, dataAt, excerpt, send, type HttpTarget, type ProbeRequest, type ProbeResponse } from './httpProbe.js';
import type { SpecIndex } from './specIndex.js';

export interface RunOptions {
  baseUrl: string;
  wsUrl: string;
  login: 'dev' | 'token';
  /** with --login token: the access tokens of two different members */
  tokens?: [string, string];
  seed: number;
  maxExamples: number;
  /** the longest one request may take, its body read and checked */
  timeoutMs: number;
  /** how long the async and stateful phases wait for a generation */
  generationTimeoutMs: number;
  /** the largest response body or STOMP frame read (default 4 MiB); a larger one fails response_size */
  maxBodyBytes?: number;
  /** the longest the whole run may take (default: no limit); past it the run stops with a run_deadline failure */
  deadlineMs?: number;
  /** every instance of the deployment, one service on one database (default: the one at baseUrl and wsUrl); the delivery phase spreads its subscribers and writes over them */
  instances?: Instance[];
  /** commands the delivery phase runs at chosen points of its generation (kill an instance, restart Redis, ...) */
  faultHooks?: FaultHook[];
}

/** One instance of the service under test: its HTTP base URL and its STOMP endpoint. */
export interface Instance {
  baseUrl: string;
  wsUrl: string;
}

/** The instances of the run: the given ones, else the one at baseUrl and wsUrl. */
export const instancesOf = (options: RunOptions): Instance[] =>
  options.instances && options.instances.length > 0 ? options.instances : [{ baseUrl: options.baseUrl, wsUrl: options.wsUrl }];

export interface Member {
  token: string;
  tripPlanId: number;
  chatRoomId: number;
}

export interface RunContext {
  options: RunOptions;
  spec: SpecIndex;
  target: HttpTarget;
  a: Member;
  b: Member;
  /** a trip-creation body from the spec's own example */
  tripExample: JsonObject;
}

export class SetupError extends Error {}

async function signIn(spec: SpecIndex, target: HttpTarget, email: string): Promise<string> {
  const op = spec.operation('devLogin');
  const res = await send(target, { operationId: op.operationId, method: 'POST', path: op.path, body: { email } });
  if (res.status !== 200) throw new SetupError(`dev-login answered ${res.status}; use --login token with --token and --other-token (${excerpt(res, 200)})`);
  const accessToken = dataAt(res, 'accessToken');
  if (typeof accessToken !== 'string') throw new SetupError(`dev-login answered 200 without data.accessToken (${excerpt(res, 200)})`);
  return accessToken;
}

export async function createTripPlan(
  ctx: Pick<RunContext, 'spec' | 'target' | 'tripExample'>,
  token: string,
  body = ctx.tripExample,
): Promise<{ tripPlanId: number; chatRoomId: number }> {
  const op = ctx.spec.operation('createTripPlanSession');
  const res = await send(ctx.target, { operationId: op.operationId, method: 'POST', path: op.path, token, body });
  if (res.status !== 201) throw new SetupError(`createTripPlanSession answered ${res.status}: ${excerpt(res, 300)}`);
  const [tripPlanId, chatRoomId] = [dataAt(res, 'tripPlanId'), dataAt(res, 'chatRoomId')];
  if (typeof tripPlanId !== 'number' || typeof chatRoomId !== 'number')
    throw new SetupError(`createTripPlanSession answered 201 without data.tripPlanId and data.chatRoomId: ${excerpt(res, 300)}`);
  return { tripPlanId, chatRoomId };
}

/** Waits while the plan generates (asking getTripPlan every 100 ms): its generationStatus when it stopped, or when the wait ran out. */
export async function waitForGeneration(ctx: Pick<RunContext, 'spec' | 'target' | 'options'>, token: string, tripPlanId: number): Promise<Json | undefined> {
  const op = ctx.spec.operation('getTripPlan');
  const request: ProbeRequest = { operationId: op.operationId, method: 'GET', path: pathFor(op, { tripPlanId, chatRoomId: 0 }), token };
  const deadline = Date.now() + ctx.options.generationTimeoutMs;
  let status: Json | undefined = 'GENERATING';
  while (status === 'GENERATING' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = dataAt(await send(ctx.target, request), 'generationStatus');
  }
  return status;
}

export async function createRunContext(spec: SpecIndex, options: RunOptions): Promise<RunContext> {
  const target: HttpTarget = { baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes };
  const tripExample = objectOrEmpty(structuredClone(spec.operation('createTripPlanSession').body!.examples[0]!.value));
  let tokens: [string, string];
  if (options.login === 'dev') {
    const tag = `${options.seed}-${Date.now().toString(36)}`;
    tokens = [await signIn(spec, target, `conformance-a-${tag}@example.com`), await signIn(spec, target, `conformance-b-${tag}@example.com`)];
  } else {
    if (!options.tokens) throw new SetupError('--login token needs --token and --other-token (two different members)');
    tokens = options.tokens;
  }
  const base = { spec, target, tripExample };
  const [planA, planB] = [await createTripPlan(base, tokens[0]), await createTripPlan(base, tokens[1])];
  return { options, spec, target, tripExample, a: { token: tokens[0], ...planA }, b: { token: tokens[1], ...planB } };
}

/** Path parameters of an operation filled with the given member's resources. */
export function pathFor(op: OperationFact, member: Pick<Member, 'tripPlanId' | 'chatRoomId'>, overrides: Record<string, string | number> = {}): string {
  return fillTemplate(op.path, (name) => {
    if (Object.hasOwn(overrides, name)) return overrides[name];
    if (name === 'tripPlanId') return member.tripPlanId;
    if (name === 'chatRoomId') return member.chatRoomId;
    return numberOrUndefined(jsonAt(op.parameters.find((p) => p.name === name)?.schema, 'minimum')) ?? 1;
  });
}

/** A request for `op` on the member's resources with the first documented body example. */
export function exampleRequest(op: OperationFact, member: Member, token: string | null = member.token): ProbeRequest {
  const example = op.body?.examples[0]?.value as Record<string, unknown> | undefined;
  const body = example && 'chatRoomId' in example ? { ...example, chatRoomId: member.chatRoomId } : example;
  return { operationId: op.operationId, method: op.method.toUpperCase(), path: pathFor(op, member), token: op.secured ? token : null, body };
}

/** Sends an operation's request, counts it in the phase's report, and applies the checks every response gets. */
export async function sendChecked(ctx: Pick<RunContext, 'spec' | 'target'>, recorder: PhaseRecorder, request: ProbeRequest): Promise<ProbeResponse> {
  const response = await send(ctx.target, request);
  recorder.report.requests++;
  checkResponse(recorder, ctx.spec, ctx.target, request, response);
  return response;
}
