// The logs a plan's messages are ordered in, and the messages that end a run, as asyncapi.yaml's
// `x-delivery` states them (the spec's "Late subscribers and reconnects" in machine-readable form):
// each channel the server sends on names its log (the schedule and errors channels share the
// plan's, the chat channel has its own) and the messages that end a run, and the shared part names
// the headers that carry a message's position.
import { fillTemplate, runEndOf, type DeliveryFacts } from '../../../specModel/index.js';
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import type { SpecIndex } from '../../specIndex.js';

export interface PlanLog {
  name: string;
  /** the concrete destinations of its channels for one plan */
  destinations: string[];
  /** the headers that carry a message's place in the log */
  position: Pick<DeliveryFacts['position'], 'epochHeader' | 'offsetHeader'>;
}

/** The delivery facts of the spec, or the reason the phase cannot run without them. */
export function deliveryFactsOf(spec: SpecIndex): DeliveryFacts {
  if (!spec.delivery.facts) throw new Error(`asyncapi.yaml's x-delivery cannot be read: ${spec.delivery.problems.join('; ')}`);
  return spec.delivery.facts;
}

/** The logs of one plan: every destination channel with x-delivery, grouped by the log it names. */
export function planLogsOf(spec: SpecIndex, plan: { tripPlanId: number; chatRoomId: number }): PlanLog[] {
  const facts = deliveryFactsOf(spec);
  const logs = new Map<string, string[]>();
  for (const channel of spec.channels.filter((c) => c.action === 'receive' && facts.channels[c.name])) {
    const name = facts.channels[channel.name]!.log;
    logs.set(name, [...(logs.get(name) ?? []), fillTemplate(channel.address, plan)]);
  }
  return [...logs].map(([name, destinations]) => ({ name, destinations, position: facts.position }));
}

/** Whether the message is one that ends its run (any outcome). */
export function endsRun(spec: SpecIndex, m: ReceivedMessage): boolean {
  const channel = spec.channelFor(m.destination);
  return channel !== null && runEndOf(deliveryFactsOf(spec), channel.name, m.body) !== null;
}

/** A message's place in its log, read from the log's position headers; null when they do not give one. */
export function positionOf(m: ReceivedMessage, log: Pick<PlanLog, 'position'>): { epoch: string; offset: number } | null {
  const epoch = m.headers[log.position.epochHeader];
  const offset = m.headers[log.position.offsetHeader];
  if (!epoch || !offset || !/^[1-9][0-9]*$/.test(offset)) return null;
  return { epoch, offset: Number(offset) };
}
