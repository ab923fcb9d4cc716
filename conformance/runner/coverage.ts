// What a run exercised and checked, against what the specs document: operations × documented
// statuses, the headers each of those responses documents, channels × messages (the STOMP
// connection's own frames included), and the error codes. Phases report what they saw
// (PhaseRecorder.observe); the report says, per dimension, how much was covered and what was not,
// so a CI job can see what its run never reached and fail below a floor (--min-coverage).
import { arrayOrEmpty, jsonAt, readChannels, readMessages, stringOrUndefined } from '../specModel/index.js';
import type { SpecIndex } from './specIndex.js';

export type Observation =
  /** a response checked against its operation and status; `headers`: the names it carried (lower case) */
  | { kind: 'response'; operationId: string; status: number; headers: string[]; code?: string }
  /** a STOMP frame sent or received, by its command; a MESSAGE by its channel */
  | { kind: 'frame'; command: string; channel?: string }
  /** an error code seen: an error body's, an ERROR frame's, an errors-channel message's */
  | { kind: 'errorCode'; code: string };

export interface CoverageDimension {
  name: 'operation statuses' | 'response headers' | 'channel messages' | 'error codes';
  documented: number;
  exercised: number;
  /** the documented items never exercised */
  missing: string[];
}

export interface CoverageReport {
  dimensions: CoverageDimension[];
  /** the mean of the dimensions' shares exercised, in percent (one decimal, rounded down) */
  percent: number;
}

const dimension = (name: CoverageDimension['name'], documented: string[], seen: ReadonlySet<string>): CoverageDimension => {
  const missing = documented.filter((item) => !seen.has(item));
  return { name, documented: documented.length, exercised: documented.length - missing.length, missing };
};

/** The documented items of each dimension, and the ones the observations reached. */
export function coverageOf(spec: SpecIndex, observations: readonly Observation[]): CoverageReport {
  const responses = observations.filter((o) => o.kind === 'response');
  const frames = observations.filter((o) => o.kind === 'frame');
  const codes = new Set(observations.flatMap((o) => (o.kind === 'errorCode' ? [o.code] : o.kind === 'response' && o.code ? [o.code] : [])));

  const statuses = spec.operations.flatMap((op) => op.responses.map((r) => `${op.operationId} ${r.status}`));
  const headers = spec.operations.flatMap((op) => op.responses.flatMap((r) => r.headers.map((h) => `${op.operationId} ${r.status} ${h}`)));
  const seenStatuses = new Set(responses.map((o) => `${o.operationId} ${o.status}`));
  const seenHeaders = new Set(responses.flatMap((o) => o.headers.map((h) => `${o.operationId} ${o.status} ${h}`)));
  const headerNames = new Map(headers.map((item) => [item.toLowerCase(), item]));

  // A destination channel's messages are reached by a MESSAGE (or SEND) on it; the connection's own channel's by their frame's command.
  const commandOf = new Map(readMessages(spec.asyncapi).map((m) => [m.name, m.stompCommand]));
  const channelMessages = readChannels(spec.asyncapi).flatMap((c) =>
    c.messages.map((m) => ({ item: `${c.name} ${m}`, channel: c.name, address: c.address, command: commandOf.get(m) })),
  );
  const seenMessages = new Set(
    channelMessages
      .filter((cm) => frames.some((f) => (cm.address === null ? f.command === cm.command && f.channel === undefined : f.channel === cm.channel)))
      .map((cm) => cm.item),
  );
  const errorCodes = arrayOrEmpty(jsonAt(spec.openapi, 'components', 'schemas', 'ErrorCode', 'oneOf')).flatMap((alternative) => {
    const code = stringOrUndefined(jsonAt(alternative, 'const'));
    return code ? [code] : [];
  });

  const dimensions = [
    dimension('operation statuses', statuses, seenStatuses),
    dimension('response headers', headers, new Set([...seenHeaders].map((item) => headerNames.get(item.toLowerCase()) ?? item))),
    dimension(
      'channel messages',
      channelMessages.map((cm) => cm.item),
      seenMessages,
    ),
    dimension('error codes', errorCodes, codes),
  ];
  // The mean of the dimensions: pooled, the hundreds of documented headers would drown the rest.
  const shares = dimensions.map((d) => (d.documented === 0 ? 1 : d.exercised / d.documented));
  return { dimensions, percent: Math.floor((shares.reduce((sum, share) => sum + share, 0) / shares.length) * 1000) / 10 };
}
