// What each step of the async phase works with: the run, the phase's recorder, the fresh plan whose
// channels it uses, and how a failure is replayed by hand.
import type { PhaseRecorder } from '../../checks.js';
import type { RunContext } from '../../runContext.js';

export interface StompStep {
  ctx: RunContext;
  recorder: PhaseRecorder;
  plan: { tripPlanId: number; chatRoomId: number };
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
