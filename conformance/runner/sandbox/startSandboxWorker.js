// The entry of the sandbox's worker thread. A worker starts without the loader the package's bins
// register (runCli.js), so it registers tsx for itself, scoped to the one import, and runs the
// worker's TypeScript. A worker that cannot start says so at once instead of leaving the runner to
// wait out its start-up bound.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

try {
  await tsImport('./sandboxWorker.ts', { parentURL: import.meta.url, tsconfig: false });
} catch (error) {
  workerData.port.postMessage({ error: `the sandbox did not start: ${error instanceof Error ? error.message : String(error)}` });
  const flags = new Int32Array(workerData.signals);
  Atomics.store(flags, 1, 2);
  Atomics.notify(flags, 1);
}
