// The headers of every frame the server sent on the phase's connections (CONNECTED, MESSAGE,
// RECEIPT, ERROR) against the header schema of the message asyncapi.yaml documents for it: for a
// MESSAGE, the message of the channel its destination belongs to; for the others, the message whose
// `x-stomp-command` is the frame's command. Header values are text on the wire, so a header the
// schema types as a number or a boolean is read as one first. One failure per way a frame breaks
// its schema, counting the frames that break it the same way.
import { isJsonObject, jsonAt, objectOrEmpty, resolveObject, type Json, type JsonObject } from '../../../specModel/index.js';
import type { ServerFrame } from '../../../stomp/recordingStompClient.js';
import type { SchemaProblem } from '../../sandbox/sandbox.js';
import { replay, type StompStep } from './stompStep.js';

/** The names of the messages whose `x-stomp-command` is `command`. */
const messagesCarriedBy = (asyncapi: JsonObject, command: string): string[] =>
  Object.entries(objectOrEmpty(jsonAt(asyncapi, 'components', 'messages')))
    .filter(([, message]) => resolveObject(asyncapi, message)['x-stomp-command'] === command)
    .map(([name]) => name);

/** A header value as the type its schema gives it (text that reads as one; anything else stays text). */
function typed(asyncapi: JsonObject, schema: Json | undefined, text: string): Json {
  const type = resolveObject(asyncapi, schema).type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('string')) return text;
  if ((types.includes('integer') || types.includes('number')) && /^-?[0-9]+(\.[0-9]+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** A frame's headers as the values its header schema (resolved) types them: what the schema is checked against. */
export function typedHeaders(asyncapi: JsonObject, schema: JsonObject, headers: Record<string, string>): JsonObject {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return Object.fromEntries(Object.entries(headers).map(([name, text]) => [name, typed(asyncapi, properties[name], text)]));
}

/** The header a problem is about: the one missing, the one not declared, or the one whose value broke the schema. */
function headerOf(problem: SchemaProblem): string {
  const { missingProperty, additionalProperty } = problem.params;
  if (typeof missingProperty === 'string') return missingProperty;
  if (typeof additionalProperty === 'string') return additionalProperty;
  return (problem.instancePath.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/** What was expected of the header and what came: "must match pattern "^[0-9]+,[0-9]+$", got "10000;10000"". */
function explain(problem: SchemaProblem, headers: Record<string, string>): string {
  const header = headerOf(problem);
  if (problem.params.missingProperty !== undefined) return `header ${header} is required, got none`;
  if (problem.params.additionalProperty !== undefined) return `header ${header} is not declared, got ${JSON.stringify(headers[header])}`;
  const allowed = Array.isArray(problem.params.allowedValues) ? ` (${problem.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `header ${header} ${problem.message ?? 'is invalid'}${allowed}, got ${JSON.stringify(headers[header])}`;
}

/** The message documenting the frame and the check's target (a MESSAGE's channel, else the message), or why there is none. */
type Documented = { name: string; target: string } | { problem: string; target: string };

function documentingMessage(step: StompStep, frame: ServerFrame): Documented {
  const { spec } = step.ctx;
  if (frame.command === 'MESSAGE') {
    const channel = spec.channelFor(frame.headers.destination ?? '');
    if (!channel) return { problem: `no channel has the destination ${frame.headers.destination}`, target: 'MESSAGE' };
    return { name: channel.messages[0]!, target: channel.name };
  }
  const names = messagesCarriedBy(spec.asyncapi, frame.command);
  if (names.length !== 1) return { problem: `${names.length} messages of the AsyncAPI document have x-stomp-command ${frame.command}`, target: frame.command };
  return { name: names[0]!, target: names[0]! };
}

/** Every way the frame's headers break their schema, as [key for grouping, message]. */
function frameProblems(step: StompStep, frame: ServerFrame, documented: Documented): { target: string; problems: [string, string][] } {
  if ('problem' in documented) return { target: documented.target, problems: [[documented.problem, documented.problem]] };
  const headers = step.ctx.spec.headersOf(documented.name);
  if (!headers) return { target: documented.target, problems: [['undeclared', `${documented.name} declares no headers`]] };
  const verdict = headers.check(typedHeaders(step.ctx.spec.asyncapi, headers.schema, frame.headers));
  if (verdict.valid) return { target: documented.target, problems: [] };
  if (verdict.undecided !== undefined) return { target: documented.target, problems: [['undecided', `the headers were not checked: ${verdict.undecided}`]] };
  const where = `${frame.command} (${documented.name})`;
  return {
    target: documented.target,
    problems: verdict.problems.map((p) => [`${headerOf(p)} ${p.message}`, `${where}: ${explain(p, frame.headers)}`]),
  };
}

export function checkFrameHeaders(step: StompStep): void {
  const { recorder } = step;
  /** target -> way a frame breaks its schema -> [the first message about it, frames] */
  const failing = new Map<string, Map<string, [string, number]>>();
  // Every MESSAGE to one destination has the same message: its channel is looked up once.
  const documented = new Map<string, Documented>();
  for (const frame of step.connections.flatMap((c) => c.frames)) {
    const key = frame.command === 'MESSAGE' ? `MESSAGE ${frame.headers.destination}` : frame.command;
    if (!documented.has(key)) documented.set(key, documentingMessage(step, frame));
    const { target, problems } = frameProblems(step, frame, documented.get(key)!);
    if (problems.length === 0) {
      recorder.check(true, 'frame_headers', target, '', '');
      continue;
    }
    const byKey = failing.get(target) ?? new Map<string, [string, number]>();
    failing.set(target, byKey);
    for (const [way, message] of problems) byKey.set(way, [byKey.get(way)?.[0] ?? message, (byKey.get(way)?.[1] ?? 0) + 1]);
  }
  for (const [target, byKey] of failing) {
    for (const [message, frames] of byKey.values()) {
      const count = frames > 1 ? ` (${frames} frames)` : '';
      recorder.check(false, 'frame_headers', target, `${message}${count}`, replay(step, `the ${target} frames of the steps above`));
    }
  }
}
