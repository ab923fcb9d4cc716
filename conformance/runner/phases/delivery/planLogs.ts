// The logs a plan's messages are ordered in, and the messages that end a run (asyncapi.yaml, "Late
// subscribers and reconnects"): the schedule and errors channels share the plan's log (one offset
// sequence per epoch over both), the chat channel has a log of its own; a run's last message is
// COMPLETED or CANCELLED on the chat, or AI002 on the errors channel.
import { fillTemplate, jsonAt } from '../../../specModel/index.js';
import type { ReceivedMessage } from '../../../stomp/recordingStompClient.js';
import type { SpecIndex } from '../../specIndex.js';

export interface PlanLog {
  name: string;
  /** the concrete destinations of its channels for one plan */
  destinations: string[];
}

const logOfChannel: Record<string, string> = { scheduleUpdates: 'plan', errors: 'plan', chatStream: 'chat' };

/** The logs of one plan, by the channels the spec declares (a receive channel of another log is its own). */
export function planLogsOf(spec: SpecIndex, plan: { tripPlanId: number; chatRoomId: number }): PlanLog[] {
  const logs = new Map<string, string[]>();
  for (const channel of spec.channels.filter((c) => c.action === 'receive' && c.address.startsWith('/'))) {
    const name = logOfChannel[channel.name] ?? channel.name;
    logs.set(name, [...(logs.get(name) ?? []), fillTemplate(channel.address, plan)]);
  }
  return [...logs].map(([name, destinations]) => ({ name, destinations }));
}

/** Whether the message is the last its run appends. */
export const endsRun = (m: ReceivedMessage): boolean => {
  const stream = jsonAt(m.body, 'messageStreamType');
  return stream === 'COMPLETED' || stream === 'CANCELLED' || (m.destination.includes('/errors/') && jsonAt(m.body, 'code') === 'AI002');
};

/** A message's place in its log, or null when its headers do not give one. */
export function positionOf(m: ReceivedMessage): { epoch: string; offset: number } | null {
  const epoch = m.headers['x-epoch'];
  const offset = m.headers['x-offset'];
  if (!epoch || !offset || !/^[1-9][0-9]*$/.test(offset)) return null;
  return { epoch, offset: Number(offset) };
}
