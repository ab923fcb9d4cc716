// asyncapi.yaml's `x-delivery` (docs/realtime.md, "Delivery guarantees as data"): the spec lint's
// rules hold of it (conformance/lint/deliveryRules.ts) and fail a broken copy, each with the problem
// meant for it; the settings it names are the service's, with its defaults; and the generated
// registry says which messages end a run as the spec does.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEndOf } from '../../generated/asyncapi.js';
import { deliveryProblems } from '../../conformance/lint/deliveryRules.js';
import { bundle, readDelivery, readYaml, type JsonObject } from '../../conformance/specModel/index.js';
import { loadConfig, settings } from '../../src/config/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const asyncapi = bundle(path.join(root, 'specs/asyncapi.yaml'));
const openapi = readYaml(path.join(root, 'specs/openapi.yaml'));

/** A copy of asyncapi.yaml (bundled) with `change` applied to its `components.x-delivery` and channels. */
function broken(change: (common: JsonObject, channels: Record<string, JsonObject>) => void): JsonObject {
  const doc = structuredClone(asyncapi);
  change((doc.components as JsonObject)['x-delivery'] as JsonObject, doc.channels as Record<string, JsonObject>);
  return doc;
}

const delivery = (channel: JsonObject) => channel['x-delivery'] as JsonObject;
const firstEnd = (channel: JsonObject) => (delivery(channel).endsRun as JsonObject[])[0]!;

describe('x-delivery of asyncapi.yaml', () => {
  it('keeps every rule of the spec lint', () => {
    expect(deliveryProblems(asyncapi, openapi)).toEqual([]);
    const channels = readDelivery(asyncapi).facts?.channels ?? {};
    expect(Object.entries(channels).map(([name, channel]) => `${name} ${channel.log}`)).toEqual([
      'chatStream chatRoom',
      'scheduleUpdates tripPlan',
      'errors tripPlan',
    ]);
  });

  const cases: [string, (common: JsonObject, channels: Record<string, JsonObject>) => void, string][] = [
    ['a channel the server sends on without it', (_c, channels) => delete channels.errors!['x-delivery'], 'channels.errors: the server sends on it, but it has no x-delivery'],
    [
      'a channel the client sends on with it',
      (_c, channels) => (channels.chatMessages!['x-delivery'] = { log: 'chatRoom', endsRun: [] }),
      'channels.chatMessages: has x-delivery, but the server does not send on it',
    ],
    ['a channel naming a log that is not declared', (_c, channels) => (delivery(channels.errors!).log = 'plan'), 'names plan, which is not a log'],
    ['a log no channel is in', (common) => ((common.logs as JsonObject).orphan = { rebuildWith: ['getTripPlan'] }), 'logs.orphan: no channel'],
    ['an operation openapi.yaml does not have', (common) => ((common.logs as JsonObject).chatRoom = { rebuildWith: ['listChats'] }), 'listChats is not an operationId'],
    ['a run end that is not a message of its channel', (_c, channels) => (firstEnd(channels.chatStream!).message = 'ErrorResponse'), 'not a message of the channel'],
    [
      'a run end its message cannot carry',
      (_c, channels) => (firstEnd(channels.chatStream!).when = { messageStreamType: 'FINISHED' }),
      'ChatStreamDto cannot carry "FINISHED" in messageStreamType',
    ],
    ['a run end on a property the payload has not', (_c, channels) => (firstEnd(channels.errors!).when = { status: 500 }), 'has no property status'],
    ['a value of the wrong type', (common) => ((common.position as JsonObject).firstOffset = '1'), 'position.firstOffset must be an integer of at least 1, got "1"'],
    ['a misspelt key', (common) => ((common.logs as JsonObject).tripPlan = { rebuildwith: ['getTripPlan'] }), 'has an unknown key rebuildwith'],
    [
      'a position header MESSAGE frames do not carry',
      (common) => ((common.position as JsonObject).offsetHeader = 'x-sequence'),
      'does not require the header x-sequence',
    ],
    ['a replay value SUBSCRIBE does not accept', (common) => (((common.replay as JsonObject).all as JsonObject).value = 'everything'), 'does not accept "everything"'],
    ['an error code no ERROR frame carries', (common) => ((common.continuity as JsonObject).errorCode = 'AI002'), 'error-code does not accept "AI002"'],
    ['a continuity signal that is not defined', (common) => ((common.continuity as JsonObject).lostWhen = ['silence']), 'lostWhen[0] must be one of'],
  ];

  it.each(cases)('fails %s', (_name, change, problem) => {
    const problems = deliveryProblems(broken(change), openapi);
    expect(problems, JSON.stringify(problems)).toContainEqual(expect.stringContaining(problem));
  });

  it('names settings of the service, and their defaults are the service defaults', () => {
    const { facts } = readDelivery(asyncapi);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: ':memory:' });
    const { messages, idleSeconds } = facts!.retention;
    expect([settings[messages.setting as keyof typeof settings].defaultText, config.realtime.historySize]).toEqual([String(messages.default), messages.default]);
    expect([settings[idleSeconds.setting as keyof typeof settings].defaultText, config.realtime.historyTtlSeconds]).toEqual([
      String(idleSeconds.default),
      idleSeconds.default,
    ]);
  });

  it('says in the generated registry which messages end a run', () => {
    const at = '2026-11-22T09:30:40Z';
    expect(runEndOf('chatStream', { message: 'done', isComplete: true, timestamp: at, messageStreamType: 'COMPLETED' })).toBe('completed');
    expect(runEndOf('chatStream', { message: 'stop', isComplete: true, timestamp: at, messageStreamType: 'CANCELLED' })).toBe('cancelled');
    expect(runEndOf('chatStream', { message: 'hi', isComplete: true, timestamp: at, messageStreamType: 'CHAT' })).toBeNull();
    const error = { timestamp: at, message: 'x', path: '/api/v1/trips/1', errors: null };
    expect(runEndOf('errors', { ...error, code: 'AI002' })).toBe('failed');
    expect(runEndOf('errors', { ...error, code: 'CHAT102' })).toBeNull();
  });
});
