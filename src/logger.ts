// Structured logs: one JSON line per event (pino). Request-scoped loggers carry the request id.
// Lines go to stdout through an asynchronous buffer of at most LOG_BUFFER_BYTES: when nobody reads
// stdout (a full pipe), further lines are dropped instead of growing memory or blocking. pino's own
// exit hook would flush that buffer synchronously, retrying a full pipe forever, which is what held
// SIGTERM; flushLogs() bounds the flush at stop instead.
import { pino, type Logger } from 'pino';

export type { Logger };

export const LOG_BUFFER_BYTES = 8 * 1024 * 1024;

type Destination = ReturnType<typeof pino.destination>;
const destinations = new WeakMap<Logger, { destination: Destination; dropped: () => number; flushing?: Promise<void> }>();

export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES });
  let dropped = 0;
  destination.on('drop', () => dropped++);
  const log = pino(
    {
      level,
      base: { service: 'trip-itinerary' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  destinations.set(log, { destination, dropped: () => dropped });
  return log;
}

/** Lines dropped so far because stdout was not read. */
export function droppedLogLines(log: Logger): number {
  return destinations.get(log)?.dropped() ?? 0;
}

/**
 * Writes out what is buffered, waiting at most `limitMs`; what is still unwritten then (nobody
 * reads stdout) is dropped, so the process can exit. Call last: the logger writes nothing after.
 */
export function flushLogs(log: Logger, limitMs: number): Promise<void> {
  const entry = destinations.get(log);
  if (!entry) return Promise.resolve();
  const { destination } = entry;
  entry.flushing ??= new Promise((resolve) => {
    const giveUp = setTimeout(() => {
      destination.destroy();
      resolve();
    }, limitMs);
    destination.once('close', () => {
      clearTimeout(giveUp);
      resolve();
    });
    destination.end();
  });
  return entry.flushing;
}

/** Drops whatever is still buffered, at once (the last resort before a forced exit). */
export function abandonLogs(log: Logger): void {
  destinations.get(log)?.destination.destroy();
}
