// Where the runner runs what a served spec can make arbitrarily slow: validating a value against a
// schema and matching a text against a pattern. A pattern such as `^(a+)+$` against "aaa…ab"
// backtracks for longer than the universe is old and blocks its thread, so no timer on that thread
// could fire. Both run in a worker thread instead; the runner waits for each answer synchronously
// (the validators stay plain functions, fast-check's filters among their callers) but for a bounded
// time, and a worker that does not answer in time is terminated (which works while it spins) and
// replaced. The check that needed the answer is then undecided, with a note saying why, and every
// later use of the same schema or pattern is undecided at once rather than waiting again.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { JsonObject } from '../../specModel/index.js';
import { signal, type SandboxAnswer, type SandboxRequest, type SandboxWorkerData, type SchemaProblem } from './sandboxProtocol.js';

export type { SchemaProblem } from './sandboxProtocol.js';

export interface SchemaVerdict {
  valid: boolean;
  problems: SchemaProblem[];
  /** set when the value could not be checked (valid is then false): why, e.g. "validation against this schema did not finish within 2000 ms (…)" */
  undecided?: string;
}

export interface SandboxLimits {
  /** the longest one validation or match may take */
  timeoutMs: number;
  /** when set (epoch ms): nothing runs after it */
  deadlineAt?: number | undefined;
}

export interface Sandbox {
  /** Validates `value` against `schema`, a schema object of the given document (refs as in the document). */
  validate(document: 'openapi' | 'asyncapi', schema: unknown, value: unknown): SchemaVerdict;
  /** Whether `text` matches `pattern` (with `flags`: `u` for a schema's pattern, as ajv reads it); undefined when undecided. */
  matches(pattern: string, flags: string, text: string): boolean | undefined;
  /** Ends the worker (it never keeps the process alive, so this is for tidiness). */
  close(): Promise<void>;
}

interface RunningWorker {
  worker: Worker;
  port: MessagePort;
  flags: Int32Array;
  /** ids of the schemas this worker has been sent */
  schemasSent: Set<number>;
}

// How long a worker may take to start (load ajv, read the documents' schemas) at most, unless the
// run's deadline comes first: start-up is the runner's own cost, not the server's.
const STARTUP_MS = 30_000;
// A hostile schema must not grow the worker's heap without bound either.
const WORKER_HEAP_MB = 512;

const deadlinePassed = "the run's deadline passed";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export function createSandbox(openapi: JsonObject, asyncapi: JsonObject, limits: SandboxLimits): Sandbox {
  let current: RunningWorker | null = null;
  let cannotStart: string | null = null;
  const schemaIds = new Map<unknown, number>();
  /** what ran out of time (`schema <id>`, `pattern /<source>/<flags>`), with the note for its later uses */
  const runaway = new Map<string, string>();
  /** the id of the last request sent */
  let requests = 0;

  const remaining = (bound: number) => Math.min(bound, limits.deadlineAt === undefined ? bound : limits.deadlineAt - Date.now());

  function start(): RunningWorker {
    const signals = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const { port1, port2 } = new MessageChannel();
    const workerData: SandboxWorkerData = { openapi, asyncapi, signals, port: port2 };
    const worker = new Worker(new URL('./startSandboxWorker.js', import.meta.url), {
      workerData,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // A worker that dies is noticed by the wait for its answer; the event must still be handled.
    worker.on('error', () => undefined);
    worker.unref();
    port1.unref();
    return { worker, port: port1, flags: new Int32Array(signals), schemasSent: new Set() };
  }

  function stop(running: RunningWorker): void {
    void running.worker.terminate();
    running.port.close();
    if (current === running) current = null;
  }

  /** The worker, started and ready; null (and `cannotStart` set) when it cannot be. */
  function ready(): RunningWorker | null {
    if (cannotStart !== null) return null;
    // A worker that stopped on its own (its heap limit) is replaced; its threadId is -1 from then on.
    if (current?.worker.threadId === -1) stop(current);
    const running = (current ??= start());
    if (Atomics.load(running.flags, signal.ready) === 0) {
      const bound = remaining(STARTUP_MS);
      if (bound <= 0 || Atomics.wait(running.flags, signal.ready, 0, bound) === 'timed-out') {
        stop(running);
        // Only the deadline cuts start-up short of its bound; the next check tries again (and finds it passed).
        if (bound >= STARTUP_MS) cannotStart = `the sandbox worker did not start within ${STARTUP_MS} ms`;
        return null;
      }
    }
    if (Atomics.load(running.flags, signal.ready) === 2) {
      const reply = receiveMessageOnPort(running.port)?.message as SandboxAnswer | undefined;
      cannotStart = reply && 'error' in reply ? reply.error : 'the sandbox worker did not start';
      stop(running);
      return null;
    }
    return running;
  }

  /** The worker's answer to `request`, or the note saying why there is none. */
  function ask(request: DistributiveOmit<SandboxRequest, 'id'>, key: string, what: string, suspect: string): SandboxAnswer | { undecided: string } {
    const earlier = runaway.get(key);
    if (earlier) return { undecided: earlier };
    if (remaining(limits.timeoutMs) <= 0) return { undecided: deadlinePassed };
    const running = ready();
    if (!running) return { undecided: cannotStart ?? deadlinePassed };
    const bound = remaining(limits.timeoutMs);
    if (bound <= 0) return { undecided: deadlinePassed };
    if (request.kind === 'validate') {
      if (!running.schemasSent.has(request.schemaId)) running.schemasSent.add(request.schemaId);
      else delete request.schema;
    }
    Atomics.store(running.flags, signal.answer, 0);
    running.port.postMessage({ ...request, id: ++requests });
    if (Atomics.wait(running.flags, signal.answer, 0, bound) === 'timed-out') {
      const died = running.worker.threadId === -1;
      stop(running);
      if (died) {
        runaway.set(key, `an earlier ${what} stopped the sandbox worker (its heap is limited to ${WORKER_HEAP_MB} MiB)`);
        return { undecided: `the sandbox worker stopped during the ${what} (its heap is limited to ${WORKER_HEAP_MB} MiB)` };
      }
      runaway.set(key, `an earlier ${what} did not finish within ${bound} ms (${suspect} may backtrack catastrophically)`);
      return { undecided: `the ${what} did not finish within ${bound} ms (${suspect} may backtrack catastrophically)` };
    }
    const reply = answerTo(running, requests, bound);
    if (!reply) throw new Error('the sandbox worker announced an answer it did not send');
    if ('error' in reply) throw new Error(reply.error);
    return reply;
  }

  /**
   * The answer to request `id` from the port. On a loaded machine the message can reach the port a
   * moment after the worker's announcement, so an empty port is read again (briefly, within `bound`);
   * an answer to an earlier request (one given up on) is dropped.
   */
  function answerTo(running: RunningWorker, id: number, bound: number): SandboxAnswer | undefined {
    const until = Date.now() + bound;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      const reply = receiveMessageOnPort(running.port)?.message as SandboxAnswer | undefined;
      if (reply?.id === id) return reply;
      if (reply) continue;
      if (Date.now() >= until) return undefined;
      Atomics.wait(pause, 0, 0, 1);
    }
  }

  return {
    validate(document, schema, value) {
      let schemaId = schemaIds.get(schema);
      if (schemaId === undefined) schemaIds.set(schema, (schemaId = schemaIds.size + 1));
      const reply = ask({ kind: 'validate', document, schemaId, schema, value }, `schema ${schemaId}`, 'validation against this schema', 'a pattern in it');
      if ('undecided' in reply) return { valid: false, problems: [], undecided: reply.undecided };
      if (!('valid' in reply)) throw new Error('the sandbox worker answered a validation with a match');
      return reply;
    },
    matches(pattern, flags, text) {
      const reply = ask({ kind: 'match', pattern, flags, text }, `pattern /${pattern}/${flags}`, `match against /${pattern}/${flags}`, 'the pattern');
      if ('undecided' in reply) return undefined;
      if (!('matches' in reply)) throw new Error('the sandbox worker answered a match with a validation');
      return reply.matches;
    },
    async close() {
      const running = current;
      current = null;
      if (running) {
        running.port.close();
        await running.worker.terminate();
      }
    },
  };
}
