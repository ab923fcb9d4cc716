// A mutation operator: one plausible server bug, the line of the specs it breaks, the runner's
// phases that exercise it, the check meant to catch it, and the mutation that plays it through the
// mutating proxy.
import type { CheckName } from '../runner/checks.js';
import type { Mutation } from './mutation.js';
import type { SpecQuote } from './specQuote.js';

export interface MutationOperator {
  /** kebab-case, unique */
  id: string;
  /** the bug, in one line */
  description: string;
  quote: SpecQuote;
  /**
   * The runner's phases that exercise it. A phase this runner does not have (yet) is left out of
   * the run and named in the report, so an operator can wait for the phase meant to catch it.
   */
  phases: readonly string[];
  /** the check meant to catch it: a check of the runner, or (`planned: …`) one it does not have yet */
  meantFor: CheckName | `planned: ${string}`;
  /** A fresh mutation for one proxy (an operator that keeps state keeps it in here). */
  mutation(): Mutation;
}
