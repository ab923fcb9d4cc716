// Typed publishers, one per server-to-client channel of asyncapi.yaml: the payload type comes from
// generated/asyncapi.ts and every payload is checked with the generated validator before it leaves
// (a violation throws in strict mode, is logged otherwise). Each message is appended to its plan
// log (planLog.ts), which delivers it: the schedule and errors channels of a plan to the plan's
// log, the chat channel to the room's. A generation run publishes through forRun: its messages
// carry the run's token (a newer run or attempt refuses an older one's), and its terminal message
// (one its channel's `x-delivery` lists in `endsRun`: chat COMPLETED or CANCELLED, errors AI002)
// ends the run in both logs. Everything else (edits,
// chat answers, refused chat messages) uses chat/schedule/error and continues the current epoch.
import { channelAddress, channels, runEndOf, type ChannelName, type ChannelParameters, type ChannelPayloads } from '../../generated/asyncapi.js';
import { messageValidators } from '../../generated/validators.js';
import type { ResponseValidationMode } from '../config/config.js';
import { fitErrorResponse } from '../kernel/errorBodyLimits.js';
import type { Logger } from '../kernel/logger.js';
import { planStream, roomStream, type AppendOutcome, type PlanLog, type RunToken } from './planLog.js';

export type ServerChannel = 'chatStream' | 'scheduleUpdates' | 'errors';

export class MessageContractError extends Error {}

/** Whose channels a message goes to: a plan, its chat room, and their owner. */
export interface PlanAddress {
  memberId: number;
  tripPlanId: number;
  chatRoomId: number;
}

export interface Publishers {
  chat(memberId: number, chatRoomId: number, payload: ChannelPayloads['chatStream']): void;
  schedule(memberId: number, tripPlanId: number, payload: ChannelPayloads['scheduleUpdates']): void;
  error(to: PlanAddress, payload: ChannelPayloads['errors']): void;
  /**
   * As `error`, resolving once the message is in its log and this instance's subscribers were
   * handed it: a RECEIPT sent after it cannot overtake it (with Redis the live copy comes back over
   * Pub/Sub after the append).
   */
  errorHandedOver(to: PlanAddress, payload: ChannelPayloads['errors']): Promise<void>;
  /** The publishers of one generation run of `plan`: fenced by `token`, closed by the run's terminal message. */
  forRun(plan: PlanAddress, token: RunToken): RunPublishers;
  /**
   * A new run of `plan` numbered by this process (attempt 1), for a writer without a lease on the
   * plan's row (the mock); the service's runner passes its lease token to forRun.
   */
  startRun(plan: PlanAddress): RunPublishers;
  /** Counters since start, for benchmarks and tests. */
  readonly stats: { published: number; refused: number };
  /** Resolves once every message published so far is in its log (or was refused). */
  settled(): Promise<void>;
}

export interface RunPublishers {
  /** the run and attempt its messages are written as */
  readonly token: RunToken;
  chat(payload: ChannelPayloads['chatStream']): void;
  schedule(payload: ChannelPayloads['scheduleUpdates']): void;
  error(payload: ChannelPayloads['errors']): void;
  /**
   * Why a message of this run was refused by its log, once one was: `fenced` (a newer run or
   * attempt wrote: this writer is a zombie and should stop) or `closed` (the run had ended).
   */
  readonly refused: 'fenced' | 'closed' | null;
}

export function createPublishers(log: PlanLog, mode: ResponseValidationMode, logger: Logger): Publishers {
  const stats = { published: 0, refused: 0 };
  let pending: Promise<unknown> = Promise.resolve();
  const runs = new Map<number, number>();

  function check<C extends ServerChannel>(channel: C, destination: string, payload: ChannelPayloads[C]): void {
    if (mode === 'off') return;
    const messageName = channels[channel as ChannelName].messages[0] as keyof typeof messageValidators;
    const validate = messageValidators[messageName];
    if (validate(payload)) return;
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
    logger.error({ channel, destination, problems }, 'message does not match asyncapi.yaml');
    if (mode === 'strict') throw new MessageContractError(`${channel} message violates asyncapi.yaml: ${problems.join('; ')}`);
  }

  function track(outcome: Promise<unknown>): void {
    pending = Promise.all([pending, outcome]);
  }

  function publish<C extends ServerChannel>(
    channel: C,
    memberId: number,
    parameters: ChannelParameters<C>,
    payload: ChannelPayloads[C],
    stream: string,
    /** a generation run's message; a terminal one closes the run in `sibling`, the plan's other log, too */
    run?: { token: RunToken; terminal: boolean; sibling: string; onRefused: (reason: 'fenced' | 'closed') => void },
  ): Promise<AppendOutcome | null> {
    const destination = channelAddress(channel, parameters);
    check(channel, destination, payload);
    stats.published++;
    const appended = log
      .append(stream, { memberId, destination, body: JSON.stringify(payload) }, run)
      .then((outcome: AppendOutcome) => {
        if (outcome.appended) return outcome;
        stats.refused++;
        run?.onRefused(outcome.reason);
        logger.warn({ channel, destination, run: run?.token, reason: outcome.reason }, 'message of an ended or superseded generation run not published');
        return outcome;
      })
      .catch((error: unknown) => {
        logger.error({ err: error, channel, destination }, 'message could not be published');
        return null;
      });
    track(appended);
    if (run?.terminal)
      track(log.closeRun(run.sibling, run.token).catch((error: unknown) => logger.error({ err: error, stream: run.sibling }, 'run not closed')));
    return appended;
  }

  // Error messages may echo what a client sent (a destination, a planner's complaint): same limits as HTTP.
  const errorOf = (payload: ChannelPayloads['errors']) => fitErrorResponse(payload);

  return {
    chat: (memberId, chatRoomId, payload) => void publish('chatStream', memberId, { chatRoomId }, payload, roomStream(chatRoomId)),
    schedule: (memberId, tripPlanId, payload) => void publish('scheduleUpdates', memberId, { tripPlanId }, payload, planStream(tripPlanId)),
    error: (to, payload) => void publish('errors', to.memberId, { chatRoomId: to.chatRoomId }, errorOf(payload), planStream(to.tripPlanId)),
    async errorHandedOver(to, payload) {
      const stream = planStream(to.tripPlanId);
      const outcome = await publish('errors', to.memberId, { chatRoomId: to.chatRoomId }, errorOf(payload), stream);
      if (outcome?.appended) await log.handedOver(stream, outcome);
    },
    forRun(plan, token) {
      const { memberId, tripPlanId, chatRoomId } = plan;
      const [planLog, roomLog] = [planStream(tripPlanId), roomStream(chatRoomId)];
      let refused: RunPublishers['refused'] = null;
      const onRefused = (reason: 'fenced' | 'closed') => (refused ??= reason);
      /** A message of the run; one that ends it (asyncapi.yaml x-delivery) closes the run in `sibling`, the plan's other log, too. */
      const ofRun = (ends: boolean, sibling: string) => ({ token, terminal: ends, sibling, onRefused });
      return {
        token,
        chat: (payload) => void publish('chatStream', memberId, { chatRoomId }, payload, roomLog, ofRun(runEndOf('chatStream', payload) !== null, planLog)),
        schedule: (payload) =>
          void publish('scheduleUpdates', memberId, { tripPlanId }, payload, planLog, ofRun(runEndOf('scheduleUpdates', payload) !== null, roomLog)),
        error: (payload) => void publish('errors', memberId, { chatRoomId }, errorOf(payload), planLog, ofRun(runEndOf('errors', payload) !== null, roomLog)),
        get refused() {
          return refused;
        },
      };
    },
    startRun(plan) {
      const run = (runs.get(plan.tripPlanId) ?? 0) + 1;
      runs.set(plan.tripPlanId, run);
      return this.forRun(plan, { run, attempt: 1 });
    },
    stats,
    settled: () => pending.then(() => undefined),
  };
}
