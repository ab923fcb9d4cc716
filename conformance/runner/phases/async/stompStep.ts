// What each step of the async phase works with: the run, the phase's recorder, the fresh plan whose
// channels it uses, the connections it opened, and how a failure is replayed by hand.
import { fillTemplate } from '../../../specModel/index.js';
import { connectRecordingStomp, type RecordingStompClient } from '../../../stomp/recordingStompClient.js';
import type { PhaseRecorder } from '../../checks.js';
import { defaultMaxBodyBytes } from '../../httpProbe.js';
import type { RunContext } from '../../runContext.js';

export interface StompStep {
  ctx: RunContext;
  recorder: PhaseRecorder;
  plan: { tripPlanId: number; chatRoomId: number };
  /** every connection the phase opened, for the size check at its end */
  connections: RecordingStompClient[];
}

/** How many frames of the size limit one connection may read in all (a generation is some 50 small ones). */
const FRAMES_PER_CONNECTION = 16;

/** Connects as `token` (CONNECTED, a refusal, the close or the request timeout), bounded like every response of the run. */
export async function connectStep(step: StompStep, token: string): Promise<RecordingStompClient> {
  const { wsUrl, timeoutMs, maxBodyBytes = defaultMaxBodyBytes } = step.ctx.options;
  const client = await connectRecordingStomp(wsUrl, token, {
    connectTimeoutMs: timeoutMs,
    maxFrameBytes: maxBodyBytes,
    maxConnectionBytes: FRAMES_PER_CONNECTION * maxBodyBytes,
  });
  step.connections.push(client);
  return client;
}

/** What a connection of the phase exchanged, for the coverage report: its frames by command, MESSAGEs by channel, error codes. */
export function observeConnection(step: StompStep, connection: RecordingStompClient): void {
  const { recorder, ctx } = step;
  recorder.observe({ kind: 'frame', command: 'CONNECT' });
  if (connection.connected) recorder.observe({ kind: 'frame', command: 'CONNECTED' });
  for (const error of connection.errors) {
    recorder.observe({ kind: 'frame', command: 'ERROR' });
    const code = error.headers['error-code'];
    if (code) recorder.observe({ kind: 'errorCode', code });
  }
  for (const m of connection.messages) {
    const channel = ctx.spec.channelFor(m.destination);
    if (channel) recorder.observe({ kind: 'frame', command: 'MESSAGE', channel: channel.name });
    const code = typeof m.body === 'object' && m.body !== null && !Array.isArray(m.body) ? m.body.code : undefined;
    if (typeof code === 'string') recorder.observe({ kind: 'errorCode', code });
  }
}

export const replay = (step: StompStep, what: string): string => `STOMP ${step.ctx.options.wsUrl}: ${what}`;

/** Whether a wait of the recording client ended as hoped (a RECEIPT, a message) rather than refused or timed out. */
export const succeeded = (wait: Promise<unknown>): Promise<boolean> =>
  wait.then(
    () => true,
    () => false,
  );

/** The channels a client reaches by destination on the STOMP server, by what the client does there. */
export const destinationChannels = (step: StompStep, action: 'send' | 'receive') =>
  step.ctx.spec.channels.filter((c) => c.address.startsWith('/') && c.action === action);

/** The channel each of the plan's destinations belongs to, for the channels the server sends on. */
export const channelsByDestination = (step: StompStep): Map<string, string> =>
  new Map(destinationChannels(step, 'receive').map((c) => [fillTemplate(c.address, step.plan), c.name]));
