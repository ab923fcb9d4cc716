// For a test file about traces: an OTLP receiver inside the test and this process's tracing SDK
// sending to it (with `env`'s OTEL settings on top), started before the file's tests and shut down
// after them; and a logger whose JSON lines the test can read (trace and span ids among them).
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { startTracing, type Tracing } from '../../src/composition/tracing.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlpReceiver.js';
import { testConfig } from './testApp.js';

export interface TracedFile {
  receiver: OtlpReceiver;
  tracing: Tracing;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (the receiver) and the file's own OTEL settings: an app's env */
  env: Record<string, string>;
  /** the spans received so far, after every ended span was sent */
  received(): Promise<ReceivedSpan[]>;
}

/** Call at the file's top level; the fields are there once its beforeAll ran. */
export function tracingToReceiver(otelEnv: Record<string, string> = {}): TracedFile {
  const traced = {
    async received() {
      await traced.tracing.flush();
      return traced.receiver.spans;
    },
  } as TracedFile;
  beforeAll(async () => {
    traced.receiver = await startOtlpReceiver();
    traced.env = { OTEL_EXPORTER_OTLP_ENDPOINT: traced.receiver.url, ...otelEnv };
    traced.tracing = startTracing(testConfig(traced.env).tracing!);
  });
  // Registered before the file's own hooks, so it runs after them: its apps are closed by then.
  afterAll(async () => {
    await traced.tracing?.shutdown(5000);
    await traced.receiver?.close();
  });
  return traced;
}

export type LogLine = Record<string, unknown>;

/** A logger at info whose lines are parsed into `lines`. */
export function capturedLog(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) }), lines };
}
