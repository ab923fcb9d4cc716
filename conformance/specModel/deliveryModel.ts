// Reads the `x-delivery` extension of an AsyncAPI document: the delivery guarantees of the channels
// the server sends on, as data (docs/realtime.md, "Delivery guarantees as data"). What every log
// shares is `components.x-delivery`; each such channel's log and the messages that end a generation
// run are the channel's own `x-delivery`. Codegen, the conformance runner and the spec lint read it
// here. A served document is input like any answer, so a malformed extension is a list of problems,
// never a throw; its objects are closed, so a misspelt key is a problem too.
import { isJsonObject, type Json, type JsonObject } from './json.js';
import { resolveObject } from './jsonPointer.js';

export const runOutcomes = ['completed', 'cancelled', 'failed'] as const;
export type RunOutcome = (typeof runOutcomes)[number];

/** Where a replaying SUBSCRIBE's history begins: the current epoch's first offset, or after the position the client sent. */
export const replayStarts = ['epochStart', 'afterPosition'] as const;
export type ReplayStart = (typeof replayStarts)[number];

/** What tells a subscriber that messages of a log may be missing (`continuity.lostWhen`). */
export const continuitySignals = ['newEpochPastFirstOffset', 'newEpochBeforeRunEnd', 'offsetGap', 'notRecovered', 'errorFrame'] as const;
export type ContinuitySignal = (typeof continuitySignals)[number];

/** A message that ends a generation run: `message` (a key of the channel's messages) whose payload has every property of `when` at that value. */
export interface RunEndFact {
  message: string;
  when: Record<string, Json>;
  outcome: RunOutcome;
}

export interface ChannelDeliveryFact {
  /** a key of `logs` */
  log: string;
  endsRun: RunEndFact[];
}

export interface RetainedFact {
  /** the operator's setting (an environment variable) */
  setting: string;
  default: number;
}

export interface DeliveryFacts {
  position: { epochHeader: string; offsetHeader: string; firstOffset: number; step: number };
  /** by log name: the operations (openapi.yaml operationIds) that read its state again when continuity is lost */
  logs: Record<string, { rebuildWith: string[] }>;
  runs: { startedBy: string[]; newEpochOf: string[] };
  replay: { all: { header: string; value: string; from: ReplayStart }; since: { header: string; from: ReplayStart }; recoveredHeader: string };
  retention: { messages: RetainedFact; idleSeconds: RetainedFact };
  continuity: { lostWhen: ContinuitySignal[]; errorCode: string };
  /** by channel name: every channel that carries `x-delivery` */
  channels: Record<string, ChannelDeliveryFact>;
}

export type DeliveryReading = { facts: DeliveryFacts; problems: [] } | { facts: null; problems: string[] };

/** Reads the pieces of the extension, noting each way one differs from the documented shape. */
class ShapeReader {
  readonly problems: string[] = [];

  /** An object with only the `keys` (and `description`, a string, wherever it is allowed). */
  object(node: Json | undefined, where: string, keys: string[]): JsonObject {
    if (!isJsonObject(node)) {
      this.problems.push(`${where} must be an object, got ${describe(node)}`);
      return {};
    }
    for (const key of Object.keys(node)) {
      if (key === 'description') this.string(node.description, `${where}.description`);
      else if (!keys.includes(key)) this.problems.push(`${where} has an unknown key ${key} (allowed: ${keys.join(', ')}, description)`);
    }
    return node;
  }

  string(node: Json | undefined, where: string): string {
    if (typeof node === 'string' && node !== '') return node;
    this.problems.push(`${where} must be a non-empty string, got ${describe(node)}`);
    return '';
  }

  oneOf<T extends string>(node: Json | undefined, where: string, values: readonly T[]): T {
    if (values.some((v) => v === node)) return node as T;
    this.problems.push(`${where} must be one of ${values.join(', ')}, got ${describe(node)}`);
    return values[0]!;
  }

  positiveInteger(node: Json | undefined, where: string): number {
    if (typeof node === 'number' && Number.isSafeInteger(node) && node >= 1) return node;
    this.problems.push(`${where} must be an integer of at least 1, got ${describe(node)}`);
    return 1;
  }

  list<T>(node: Json | undefined, where: string, item: (value: Json, where: string) => T, { nonEmpty = true } = {}): T[] {
    if (!Array.isArray(node) || (nonEmpty && node.length === 0)) {
      this.problems.push(`${where} must be a${nonEmpty ? ' non-empty' : 'n'} array, got ${describe(node)}`);
      return [];
    }
    return node.map((value, i) => item(value, `${where}[${i}]`));
  }

  strings(node: Json | undefined, where: string): string[] {
    return this.list(node, where, (value, at) => this.string(value, at));
  }
}

const describe = (node: Json | undefined): string => (node === undefined ? 'nothing' : JSON.stringify(node));

function readCommon(r: ShapeReader, node: Json | undefined): Omit<DeliveryFacts, 'channels'> {
  const where = 'components.x-delivery';
  const top = r.object(node, where, ['position', 'logs', 'runs', 'replay', 'retention', 'continuity']);
  const position = r.object(top.position, `${where}.position`, ['epochHeader', 'offsetHeader', 'firstOffset', 'step']);
  const logs = r.object(top.logs, `${where}.logs`, Object.keys(top.logs ?? {}));
  if (Object.keys(logs).length === 0) r.problems.push(`${where}.logs must name at least one log`);
  const runs = r.object(top.runs, `${where}.runs`, ['startedBy', 'newEpochOf']);
  const replay = r.object(top.replay, `${where}.replay`, ['all', 'since', 'recoveredHeader']);
  const all = r.object(replay.all, `${where}.replay.all`, ['header', 'value', 'from']);
  const since = r.object(replay.since, `${where}.replay.since`, ['header', 'from']);
  const retention = r.object(top.retention, `${where}.retention`, ['messages', 'idleSeconds']);
  const retained = (key: string): RetainedFact => {
    const fact = r.object(retention[key], `${where}.retention.${key}`, ['setting', 'default']);
    return {
      setting: r.string(fact.setting, `${where}.retention.${key}.setting`),
      default: r.positiveInteger(fact.default, `${where}.retention.${key}.default`),
    };
  };
  const continuity = r.object(top.continuity, `${where}.continuity`, ['lostWhen', 'errorCode']);
  return {
    position: {
      epochHeader: r.string(position.epochHeader, `${where}.position.epochHeader`),
      offsetHeader: r.string(position.offsetHeader, `${where}.position.offsetHeader`),
      firstOffset: r.positiveInteger(position.firstOffset, `${where}.position.firstOffset`),
      step: r.positiveInteger(position.step, `${where}.position.step`),
    },
    logs: Object.fromEntries(
      Object.entries(logs).map(([name, log]) => {
        const fact = r.object(log, `${where}.logs.${name}`, ['rebuildWith']);
        return [name, { rebuildWith: r.strings(fact.rebuildWith, `${where}.logs.${name}.rebuildWith`) }];
      }),
    ),
    runs: { startedBy: r.strings(runs.startedBy, `${where}.runs.startedBy`), newEpochOf: r.strings(runs.newEpochOf, `${where}.runs.newEpochOf`) },
    replay: {
      all: {
        header: r.string(all.header, `${where}.replay.all.header`),
        value: r.string(all.value, `${where}.replay.all.value`),
        from: r.oneOf(all.from, `${where}.replay.all.from`, replayStarts),
      },
      since: { header: r.string(since.header, `${where}.replay.since.header`), from: r.oneOf(since.from, `${where}.replay.since.from`, replayStarts) },
      recoveredHeader: r.string(replay.recoveredHeader, `${where}.replay.recoveredHeader`),
    },
    retention: { messages: retained('messages'), idleSeconds: retained('idleSeconds') },
    continuity: {
      lostWhen: r.list(continuity.lostWhen, `${where}.continuity.lostWhen`, (value, at) => r.oneOf(value, at, continuitySignals)),
      errorCode: r.string(continuity.errorCode, `${where}.continuity.errorCode`),
    },
  };
}

function readChannel(r: ShapeReader, name: string, channel: JsonObject, logNames: string[]): ChannelDeliveryFact {
  const where = `channels.${name}.x-delivery`;
  const node = r.object(channel['x-delivery'], where, ['log', 'endsRun']);
  const log = r.string(node.log, `${where}.log`);
  if (log !== '' && !logNames.includes(log))
    r.problems.push(`${where}.log names ${log}, which is not a log of components.x-delivery.logs (${logNames.join(', ')})`);
  const messageKeys = Object.keys(isJsonObject(channel.messages) ? channel.messages : {});
  const endsRun = r.list(
    node.endsRun,
    `${where}.endsRun`,
    (value, at) => {
      const end = r.object(value, at, ['message', 'when', 'outcome']);
      const message = r.string(end.message, `${at}.message`);
      if (message !== '' && !messageKeys.includes(message))
        r.problems.push(`${at}.message names ${message}, which is not a message of the channel (${messageKeys.join(', ')})`);
      const when = r.object(end.when, `${at}.when`, Object.keys(end.when ?? {}));
      if (Object.keys(when).length === 0) r.problems.push(`${at}.when must name at least one payload property`);
      for (const [property, expected] of Object.entries(when)) {
        if (expected === null || typeof expected === 'object')
          r.problems.push(`${at}.when.${property} must be a string, number or boolean, got ${describe(expected)}`);
      }
      return { message, when, outcome: r.oneOf(end.outcome, `${at}.outcome`, runOutcomes) };
    },
    { nonEmpty: false },
  );
  return { log, endsRun };
}

/** The extension of `doc` (a bundled AsyncAPI document), or every way it differs from its documented shape. */
export function readDelivery(doc: JsonObject): DeliveryReading {
  const r = new ShapeReader();
  const common = readCommon(r, isJsonObject(doc.components) ? doc.components['x-delivery'] : undefined);
  const logNames = Object.keys(common.logs);
  for (const name of common.runs.newEpochOf) {
    if (!logNames.includes(name)) r.problems.push(`components.x-delivery.runs.newEpochOf names ${name}, which is not a log (${logNames.join(', ')})`);
  }
  const channels: Record<string, ChannelDeliveryFact> = {};
  for (const [name, raw] of Object.entries(isJsonObject(doc.channels) ? doc.channels : {})) {
    const channel = resolveObject(doc, raw);
    if (channel['x-delivery'] !== undefined) channels[name] = readChannel(r, name, channel, logNames);
  }
  for (const name of logNames) {
    if (!Object.values(channels).some((c) => c.log === name)) r.problems.push(`components.x-delivery.logs.${name}: no channel's x-delivery names this log`);
  }
  if (r.problems.length > 0) return { facts: null, problems: r.problems };
  return { facts: { ...common, channels }, problems: [] };
}

/** The outcome of the generation run a message on `channel` ends, or null when it ends none. */
export function runEndOf(facts: Pick<DeliveryFacts, 'channels'>, channel: string, payload: Json | undefined): RunOutcome | null {
  if (!isJsonObject(payload)) return null;
  const end = facts.channels[channel]?.endsRun.find((e) => Object.entries(e.when).every(([key, value]) => payload[key] === value));
  return end?.outcome ?? null;
}
