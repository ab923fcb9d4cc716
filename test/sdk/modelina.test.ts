// Client team on @asyncapi/modelina: TypeScript models from the asyncapi.yaml the service publishes,
// checked by tsc against the STOMP payloads a real scenario received (create, subscribe, start,
// stream to COMPLETED, swap two stops, send a blank chat message).
import { jsonAt, jsonText, objectOrEmpty } from '../../conformance/specModel/index.js';
import fs from 'node:fs';
import path from 'node:path';
import { Logger, TypeScriptFileGenerator } from '@asyncapi/modelina';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedMessage } from '../../conformance/index.js';
import { busanTrip } from '../support/testApp.js';
import { captureWarnings } from './consoleCapture.js';
import { writePayloadCheck, type TypedPayloads } from './payloadCheck.js';
import { startWithPublishedSpecs, type PublishedSpecs } from './publishedSpecs.js';
import { compile } from './strictCompile.js';
import { isChat, stompRealtime } from './stompRealtime.js';
import { bodyOf } from '../support/responseBody.js';

// modelina writes `import {X} from './X'`: extensionless and not type-only, which only a bundler
// setup accepts (NodeNext wants `./X.js`, verbatimModuleSyntax wants `import type`).
const bundlerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, verbatimModuleSyntax: false };

const sentChatMessage = { content: '   ' };

/** The STOMP side of the scenario; returns every message received, in order. */
async function receiveScenarioMessages(specs: PublishedSpecs): Promise<ReceivedMessage[]> {
  const s = specs.server;
  const { accessToken } = await s.signIn('modelina@example.com');
  const ids = bodyOf(await s.request('POST', '/api/v1/trips', { token: accessToken, body: busanTrip }), 'createTripPlanSession', 201).data as {
    tripPlanId: number;
    chatRoomId: number;
  };
  const realtime = stompRealtime(s.url);
  try {
    const run = await realtime.subscribe({ accessToken, ...ids });
    await s.request('POST', `/api/v1/trips/${ids.tripPlanId}`, { token: accessToken });
    await run.completed;
    await s.request('PATCH', `/api/v1/trips/${ids.tripPlanId}/daily-plans/1/scheduled-places`, {
      token: accessToken,
      body: { chatRoomId: ids.chatRoomId, visitOrderA: 1, visitOrderB: 2 },
    });
    await realtime.waitFor(isChat('UPDATED'));
    await realtime.send(`/pub/chat/${ids.chatRoomId}/message`, sentChatMessage);
    await realtime.waitFor((m) => m.destination.includes('/errors/'));
    return [...realtime.messages()];
  } finally {
    await realtime.close();
  }
}

async function generateModels(asyncapiYaml: string, dir: string): Promise<{ names: string[]; warnings: string[] }> {
  const generator = new TypeScriptFileGenerator({
    modelType: 'interface',
    enumType: 'union',
    // Without it modelina renames `type` (TripPlanProgressMessage) to `reservedType`, which is not the wire format.
    rawPropertyNames: true,
  });
  // modelina is silent unless given a logger; keep the messages, not the model dumps that follow them.
  const logged: string[] = [];
  Logger.setLogger({
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => void logged.push(`warn: ${message}`),
    error: (message) => void logged.push(`error: ${message}`),
  });
  try {
    const { result, warnings } = await captureWarnings(() => generator.generateToFiles(asyncapiYaml, dir, { exportType: 'named' }, true));
    return { names: result.map((model) => model.modelName), warnings: [...logged, ...warnings] };
  } finally {
    Logger.setLogger(undefined);
  }
}

describe('@asyncapi/modelina on the published asyncapi.yaml', () => {
  let specs: PublishedSpecs;
  let received: ReceivedMessage[];
  let generated: { names: string[]; warnings: string[] };
  const modelsDir = () => path.join(specs.dir, 'modelina/models');

  const payloadsOf = (channel: string) => received.filter((m) => m.destination.startsWith(`/user/sub/${channel}/`)).map((m) => m.body);
  const receivedGroups = (): TypedPayloads[] => [
    { model: 'ChatStreamDto', payloads: payloadsOf('chat') },
    { model: 'TripPlanProgressMessage', payloads: payloadsOf('schedule') },
    { model: 'ErrorResponse', payloads: payloadsOf('errors') },
    { model: 'ChatMessageRequest', payloads: [sentChatMessage] },
  ];
  const check = (name: string, modelsIn: string, groups: TypedPayloads[]) => {
    const file = path.join(specs.dir, 'modelina', `${name}.ts`);
    writePayloadCheck(file, modelsIn, groups);
    return compile([file], bundlerOptions);
  };

  beforeAll(async () => {
    specs = await startWithPublishedSpecs('modelina');
    received = await receiveScenarioMessages(specs);
    generated = await generateModels(fs.readFileSync(specs.asyncapiFile, 'utf8'), modelsDir());
  });
  afterAll(() => specs?.dispose());

  it('received every kind of payload the scenario produces', () => {
    expect(new Set(payloadsOf('chat').map((p) => jsonAt(p, 'messageStreamType')))).toEqual(new Set(['CHAT', 'COMPLETED', 'UPDATED']));
    expect(new Set(payloadsOf('schedule').map((p) => jsonAt(p, 'type')))).toEqual(new Set(['DAILY_PLAN_GENERATED', 'UPDATE_STARTED', 'UPDATED']));
    expect(payloadsOf('errors').map((p) => jsonAt(p, 'code'))).toEqual(['CHAT102']);
  });

  it('generates a model named after every message payload, with only the two expected warnings', () => {
    expect(generated.warnings).toEqual([
      // FieldError.rejectedValue has no type on purpose (any JSON value): `any` is right.
      expect.stringMatching(/^warn: Failed to convert anonymous_schema_\d+ to MetaModel, defaulting to AnyModel$/),
      // ChatStreamDto is the payload of receiveChatStream and of sendChatMessage's reply: one model, met twice.
      'warn: Overwriting existing model with name ChatStreamDto, are there two models with the same name present? Overwriting the old model.',
    ]);
    expect(generated.names).toEqual(
      expect.arrayContaining(['ChatStreamDto', 'TripPlanProgressMessage', 'ErrorResponse', 'ChatMessageRequest', 'DailyPlanResponse']),
    );
  });

  it('types every payload the scenario received (tsc --strict, no diagnostics)', () => {
    expect(check('received', modelsDir(), receivedGroups())).toEqual([]);
  });

  it('rejects a payload with a field of the wrong type (the check bites)', () => {
    const [day] = payloadsOf('schedule');
    const diagnostics = check('wrongType', modelsDir(), [
      { model: 'TripPlanProgressMessage', payloads: [{ ...objectOrEmpty(day), tripPlanId: jsonText(jsonAt(day, 'tripPlanId')) }] },
    ]);
    expect(diagnostics).toEqual([expect.stringMatching(/TS2322 Type 'string' is not assignable to type 'number'/)]);
  });
});
