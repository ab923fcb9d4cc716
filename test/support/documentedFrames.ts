// Checks a frame the server sent against the message asyncapi.yaml documents for it: the message
// whose `x-stomp-command` is the frame's command (for MESSAGE, the message of the channel its
// destination belongs to). Headers go through the message's header schema, which is closed, so a
// header the spec does not declare is a problem; the body goes through the payload schema, and a
// frame whose message has no payload must have no body.
import { channels, matchChannel, stompFrameMessages } from '../../generated/asyncapi.js';
import { messageHeaderValidators, messageValidators, type ValidateFunction } from '../../generated/validators.js';
import { createStompParser } from '../../src/stomp/stompParser.js';
import { frameBodyText } from '../../src/stomp/stompFrame.js';

export interface ObservedFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

const byName = <T>(table: T, name: string): ValidateFunction | undefined => (table as Record<string, ValidateFunction>)[name];
const errorsOf = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`)
    .join('; ');

/** The name of the asyncapi.yaml message documenting the frame, or a problem. */
function documentingMessage(frame: ObservedFrame): string | { problem: string } {
  const documented: readonly string[] = (stompFrameMessages as Record<string, readonly string[]>)[frame.command] ?? [];
  if (frame.command !== 'MESSAGE') {
    return documented.length === 1 ? documented[0]! : { problem: `${frame.command}: ${documented.length} messages of asyncapi.yaml document this command` };
  }
  const channel = matchChannel(frame.headers.destination ?? '');
  const name = channel ? channels[channel.name].messages[0] : undefined;
  if (!name || !documented.includes(name)) return { problem: `MESSAGE to ${frame.headers.destination}: no channel of asyncapi.yaml receives it` };
  return name;
}

/** Every way the frame differs from its documented message (empty when it matches). */
export function frameProblems(frame: ObservedFrame): string[] {
  const name = documentingMessage(frame);
  if (typeof name !== 'string') return [name.problem];
  const where = `${frame.command} (${name})`;
  const problems: string[] = [];
  const headers = byName(messageHeaderValidators, name);
  if (!headers) problems.push(`${where}: asyncapi.yaml declares no headers for it`);
  else if (!headers(frame.headers)) problems.push(`${where} headers ${JSON.stringify(frame.headers)}: ${errorsOf(headers)}`);
  const payload = byName(messageValidators, name);
  if (!payload) {
    if (frame.body !== '') problems.push(`${where}: has a body, but its message documents none`);
  } else {
    let body: unknown = frame.body;
    if (frame.headers['content-type'] === 'application/json') {
      try {
        body = JSON.parse(frame.body);
      } catch {
        problems.push(`${where}: the body is not JSON`);
      }
    }
    if (!payload(body)) problems.push(`${where} body ${frame.body.slice(0, 200)}: ${errorsOf(payload)}`);
  }
  return problems;
}

/** Reads the frames of a server's WebSocket messages (heart-beats skipped), as a client would. */
export function createFrameReader(): (data: string | Uint8Array) => ObservedFrame[] {
  // Frames from the server are not capped by the spec; this only bounds the test's memory.
  const parser = createStompParser({ maxFrameBytes: 64 * 1024 * 1024 });
  return (data) => parser.push(data).frames.map((f) => ({ command: f.command, headers: f.headers, body: frameBodyText(f) }));
}
