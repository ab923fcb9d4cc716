// The spans of a generation run: one per claimed attempt, a child of the start request's span
// (its traceparent is stored with the job), so one trace holds the request on one instance and the
// run on another; a resumed attempt is another child of the same request span. One span per day
// under it. Through @opentelemetry/api only: no-ops with tracing off.
import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { contextOfTraceparent } from '../kernel/traceContext.js';
import type { RunOutcome } from './claimedRun.js';
import type { ClaimedGeneration } from './generationLeases.js';

const tracer = trace.getTracer('trip-itinerary/generation');

export interface GenerationSpan {
  /** the context with the run's span active: what the run executes in */
  context: Context;
  end(outcome: RunOutcome): void;
}

export function startGenerationSpan(job: ClaimedGeneration, owner: string): GenerationSpan {
  const { lease, savedDays } = job;
  // Not the active context: a start on this instance wakes the runner inside the request's own.
  const parent = contextOfTraceparent(job.traceparent);
  const span = tracer.startSpan(
    'generation',
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'trip.plan_id': lease.tripPlanId,
        'trip.generation.run': lease.run,
        'trip.generation.attempt': lease.attempt,
        'trip.generation.owner': owner,
        'trip.generation.resumed_after_day': savedDays,
      },
    },
    parent,
  );
  return {
    context: trace.setSpan(parent, span),
    end(outcome) {
      span.setAttribute('trip.generation.outcome', outcome);
      if (outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

/**
 * `work` for one day inside a span of its own, a child of the active (run) span, from `startTime`
 * (when the run began waiting for the planner's day) to the day's last write.
 */
export async function inDaySpan<T>(dayNumber: number, startTime: Date, work: () => Promise<T>): Promise<T> {
  const span: Span = tracer.startSpan('generation.day', { startTime, attributes: { 'trip.day_number': dayNumber } });
  try {
    return await context.with(trace.setSpan(context.active(), span), work);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}
