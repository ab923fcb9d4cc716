// The Planner port with a span around each call (plan: the whole run's days; summarize: one day's
// chat summary), whichever planner stands behind it. Used only with tracing on (services.ts); the
// spans are children of whatever span is active where the call is made (the generation, the day).
import { context, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { Planner } from './planner.js';

const tracer = trace.getTracer('trip-itinerary/planner');

export function tracedPlanner(planner: Planner): Planner {
  const attributes = { 'trip.planner': planner.name };
  return {
    name: planner.name,
    plan: (request, signal) =>
      inSpan('planner.plan', { ...attributes, 'trip.plan_id': request.tripPlanId }, 'trip.planner.days', () => planner.plan(request, signal)),
    summarize: (day, request, signal) =>
      inSpan('planner.summarize', { ...attributes, 'trip.plan_id': request.tripPlanId, 'trip.day_number': day.dayNumber }, 'trip.planner.chunks', () =>
        planner.summarize(day, request, signal),
      ),
  };
}

/**
 * The items of `call()` with a span from the first request for one to the last (or the error, or the consumer
 * stopping early); the planner itself runs inside the span, so anything it traces is a child.
 * `countAttribute` records how many items came.
 */
function inSpan<T>(name: string, attributes: Attributes, countAttribute: string, call: () => AsyncIterable<T>): AsyncIterable<T> {
  // Taken at the call, not at the first next(): the caller's span is the parent.
  const parent = context.active();
  return {
    async *[Symbol.asyncIterator]() {
      const span = tracer.startSpan(name, { attributes }, parent);
      const inside = trace.setSpan(parent, span);
      const items = context.with(inside, () => call()[Symbol.asyncIterator]());
      let count = 0;
      let done = false;
      try {
        for (;;) {
          const next = await context.with(inside, () => items.next());
          if (next.done) break;
          count++;
          yield next.value;
        }
        done = true;
      } catch (error) {
        done = true;
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        // The consumer stopped early (an abort, a lost lease): let the planner clean up too.
        if (!done) await context.with(inside, () => items.return?.());
        span.setAttribute(countAttribute, count);
        span.end();
      }
    },
  };
}
