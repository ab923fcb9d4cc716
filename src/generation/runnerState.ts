// What the generation runner of one instance (generationRunner.ts) keeps between its loops: the
// settings it was started with, the runs here, and where its claim passes and heartbeats stand.
import type { GenerationJobSettings } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { Logger } from '../kernel/logger.js';
import type { Metrics } from '../metrics/metricsRegistry.js';
import type { Publishers } from '../delivery/publishers.js';
import type { ClaimedRunDeps, RunOutcome } from './claimedRun.js';
import type { ClaimedGeneration } from './generationLeases.js';
import type { LeaseTerm } from './leaseTerm.js';

export interface LocalRun {
  job: ClaimedGeneration;
  /** the lease by this instance's clock: the heartbeat and the run's fenced writes move it on */
  term: LeaseTerm;
  controller: AbortController;
  done: Promise<void>;
}

export interface RunnerState {
  /** the lease owner */
  readonly owner: string;
  readonly port: DatabasePort;
  readonly log: Logger;
  readonly clock: () => number;
  readonly jobs: GenerationJobSettings;
  readonly publishers: Publishers;
  /** null or absent: metrics off */
  readonly metrics: Metrics | null | undefined;
  /** runs at once here (GENERATION_CONCURRENCY); 0: none, it only sweeps */
  readonly concurrency: number;
  readonly concurrencyPerMember: number;
  /** the jobs still waiting when it stops are failed (a single-process engine, GENERATION_TAKEOVER=fail) */
  readonly failsWaitingOnStop: boolean;
  /** what each run is given; a run gets its own logger */
  readonly runDeps: ClaimedRunDeps;
  /** the runs here, by plan */
  readonly running: Map<number, LocalRun>;
  /** member → the number of the latest start here (`starts`): whose turn it is (nextGeneration.ts) */
  readonly lastStartedByMember: Map<number, number>;
  /** how this runner's runs ended */
  readonly counts: Record<RunOutcome | 'cancelled', number>;
  starts: number;
  stopped: boolean;
  heartbeatsPaused: boolean;
  /** a heartbeat's renewals are under way: the next one waits rather than queue more on a database that does not answer */
  renewing: boolean;
  /** the claim pass under way */
  passing: Promise<void> | null;
  /** a wake came during the pass under way: another pass follows it */
  passAgain: boolean;
  /** the latest claim pass ended (nothing more to claim, or no free slot) with no wake since */
  settled: boolean;
  /** the callers of idle() still waiting */
  idleWaiters: (() => void)[];
}
