// What the runner's thread and the sandbox's worker thread say to each other. Each request is
// answered on the port; the answer is announced in shared memory, so the runner can wait for it
// synchronously and for a bounded time (Atomics.wait), however the worker is doing.
import type { MessagePort } from 'node:worker_threads';
import type { JsonObject } from '../../specModel/index.js';

export type SandboxRequest = { id: number } & (
  | {
      kind: 'validate';
      document: 'openapi' | 'asyncapi';
      /** the runner's number for the schema; the schema itself comes with the first request that names it */
      schemaId: number;
      schema?: unknown;
      value: unknown;
    }
  | { kind: 'match'; pattern: string; flags: string; text: string }
);

/** An ajv error, as much of it as the reports use. */
export interface SchemaProblem {
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `id`: the request's, so the runner never takes an answer for another request as this one's. */
export type SandboxAnswer = { id?: number } & ({ valid: boolean; problems: SchemaProblem[] } | { matches: boolean } | { error: string });

export interface SandboxWorkerData {
  openapi: JsonObject;
  asyncapi: JsonObject;
  /** Int32Array over it: [answer ready (0/1), worker ready (0 starting, 1 ready, 2 failed)] */
  signals: SharedArrayBuffer;
  port: MessagePort;
}

export const signal = { answer: 0, ready: 1 } as const;
