// The W3C trace context (`traceparent`) of the work at hand, as text that can travel with a job,
// and back. Through @opentelemetry/api only: with tracing off (no SDK registered) there is no
// propagator, nothing is written and nothing is read.
import { context, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import type { Logger } from './logger.js';

/** The traceparent of the active span (the request's), or null when nothing is traced. */
export function currentTraceparent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The context a stored traceparent names: spans started in it continue that trace. */
export function contextOfTraceparent(traceparent: string | null): Context {
  return traceparent === null ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The trace and span id of `ctx`'s span for log lines, when that span is recorded (tracing on). */
export function traceIds(ctx: Context = context.active()): { trace_id: string; span_id: string } | undefined {
  const span = trace.getSpan(ctx);
  if (!span?.isRecording()) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** `log` with the trace and span id of `ctx`'s span, when it is recorded; else `log` itself. */
export function withTraceIds(log: Logger, ctx: Context = context.active()): Logger {
  const ids = traceIds(ctx);
  return ids ? log.child(ids) : log;
}
