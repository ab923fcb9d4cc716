// OpenTelemetry traces, on only with OTEL_EXPORTER_OTLP_ENDPOINT. The code that makes spans (the
// HTTP middleware, the generation runner, the planner port) speaks only @opentelemetry/api, which
// is a no-op until this file registers the SDK: main.ts imports it dynamically when tracing is
// configured, so a service without it loads none of the SDK. Spans leave in batches as OTLP/JSON
// to `<endpoint>/v1/traces`; the W3C propagator reads and writes `traceparent` (HTTP, and the one
// stored with a generation job so the instance that runs it continues the trace).
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import type { TracingSettings } from '../config/config.js';

export interface Tracing {
  /** sends every ended span now and resolves when the collector has answered */
  flush(): Promise<void>;
  /** flushes (waiting at most `limitMs` for a collector that does not answer), then unregisters the SDK */
  shutdown(limitMs: number): Promise<void>;
}

export function startTracing(settings: TracingSettings): Tracing {
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
    // A trace begun here is recorded with OTEL_TRACES_SAMPLER_ARG's probability; one a caller began
    // (its traceparent) is recorded when the caller's was, and so is the generation it starts.
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
  });
  // Registered through the API this file imports first: in the bundle `npm start` runs
  // (tools/build/bundleServer.ts) that is the bundle's copy of the API, which the tracers the service
  // took at load time ask, while the SDK's register() below goes through the SDK's own copy in
  // node_modules. That one then finds the tracer provider taken (a refusal it tells only to the
  // unset diag logger) and installs the rest, which both copies read from the same global: the W3C
  // propagator and the AsyncLocalStorage context manager (a span started around a request is the
  // active one in everything that request awaits).
  trace.setGlobalTracerProvider(provider);
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    flush: () => provider.forceFlush(),
    async shutdown(limitMs) {
      let giveUp: NodeJS.Timeout | undefined;
      await Promise.race([provider.shutdown(), new Promise((resolve) => (giveUp = setTimeout(resolve, limitMs)))]);
      clearTimeout(giveUp);
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
