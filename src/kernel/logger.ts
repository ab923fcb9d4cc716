// Structured logs: one JSON line per event (pino). Request-scoped loggers carry the request id.
//
// Every logger of the process writes its lines to process.stdout, which node writes from the event
// loop when stdout is a pipe or a socket (a non-blocking descriptor: what the pipe cannot take now
// waits in memory), so a reader that stops reading never blocks the process. At most
// LOG_BUFFER_BYTES wait; further lines are dropped and counted. At stop, flushLogs() gives them a
// bounded time. pino's own destination (sonic-boom) writes a blocking descriptor from the thread
// pool instead: with nobody reading a full pipe, that write() never returns, and process.exit(),
// which waits for the pool's threads, hung in a futex after SIGTERM, whatever the timers said.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const LOG_BUFFER_BYTES = 8 * 1024 * 1024;
/** How often flushLogs() looks whether stdout took everything. */
const FLUSH_POLL_MS = 20;

/** The lines of every logger on their way to stdout. */
class StdoutLines implements DestinationStream {
  dropped = 0;
  private ended = false;

  constructor(private readonly out: NodeJS.WritableStream & { readonly writableLength: number }) {
    // EPIPE: the reader is gone for good; nothing logged can reach it any more.
    out.on('error', () => {
      this.ended = true;
    });
  }

  write(line: string): void {
    if (this.ended) return;
    // writableLength: what stdout holds that the pipe has not taken yet (0 for a file, written at once).
    if (this.out.writableLength + line.length > LOG_BUFFER_BYTES) {
      this.dropped++;
      return;
    }
    this.out.write(line);
  }

  /** Resolves once stdout took every line, or after `limitMs`; nothing is written after. */
  async flush(limitMs: number): Promise<void> {
    this.ended = true;
    const deadline = performance.now() + limitMs;
    while (this.out.writableLength > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, FLUSH_POLL_MS));
  }

  abandon(): void {
    this.ended = true;
  }
}

let stdoutLines: StdoutLines | undefined;

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'trip-itinerary' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    (stdoutLines ??= new StdoutLines(process.stdout)),
  );
}

/** Lines dropped so far because stdout was not read (every logger of the process together). */
export function droppedLogLines(_log: Logger): number {
  return stdoutLines?.dropped ?? 0;
}

/**
 * Waits at most `limitMs` for stdout to take the waiting lines; what is still unwritten then
 * (nobody reads stdout) is given up, and exiting drops it. Call last: the loggers write nothing after.
 */
export function flushLogs(_log: Logger, limitMs: number): Promise<void> {
  return stdoutLines?.flush(limitMs) ?? Promise.resolve();
}

/** Writes nothing more, at once (the last resort before a forced exit). */
export function abandonLogs(_log: Logger): void {
  stdoutLines?.abandon();
}
