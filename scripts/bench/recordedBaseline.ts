// Numbers of the code before issue 16's work, measured by this harness (`npm run bench`) and kept
// here for the measures whose goal is a speed-up of our own code rather than a ratio to a peer.
// CPU time per unit of work, as wall-clock throughput moves with whatever else runs on the machine.
export const preIssue16 = {
  commit: 'c157b20',
  /** this process's CPU time per generation: 20 plans to warm up, then 200 plans of 3 days measured, GENERATION_CONCURRENCY 4, offline planner without delay */
  generationCpuMsSqlite: 9.19,
  note: 'c157b20 measured 2026-11-26, 2 cores AMD EPYC at load average 16-17: 9.19 ms on the first 200 after a 20-plan warm-up (as the harness runs it), 6.9-8.3 ms on the three runs after it',
};
