// The soak's one table: every promise it checked, what it found, and the bar (zero, except the
// recovery times, which are measured, not judged). A Markdown table, so that a run can be pasted
// into docs/operations.md as it is.
import type { FaultRecord } from './soakFaults.js';
import type { HttpTally } from './soakHttp.js';
import type { SoakOutcome } from './soakLedger.js';

export interface SoakReport {
  outcome: SoakOutcome;
  http: HttpTally;
  crashes: string[];
  faults: FaultRecord[];
}

export interface SoakRow {
  measure: string;
  value: string;
  /** null: informational (recovery times, counts of work done) */
  ok: boolean | null;
}

export function soakRows({ outcome, http, crashes, faults }: SoakReport): SoakRow[] {
  const zero = (measure: string, value: number): SoakRow => ({ measure, value: String(value), ok: value === 0 });
  const a = outcome.acknowledged;
  const rows: SoakRow[] = [
    {
      measure: 'acknowledged writes',
      value: `${a.creates} creates, ${a.starts} starts, ${a.swaps} swaps, ${a.chatEdits} chat edits, ${a.deletes} deletes`,
      ok: null,
    },
    zero('acknowledged writes missing', outcome.missingWrites),
    { measure: 'edits refused with a documented 4xx (told, not lost)', value: String(outcome.refusedEdits), ok: null },
    zero('plans stuck GENERATING', outcome.plansStuck),
    zero('days missing', outcome.daysMissing),
    zero('days duplicated', outcome.daysDuplicated),
    zero('day summaries missing', outcome.summariesMissing),
    zero('day summaries duplicated', outcome.summariesDuplicated),
  ];
  for (const [kind, tally] of Object.entries(outcome.subscribers)) {
    rows.push({ measure: `${kind} subscribers (unfinished)`, value: `${tally.count} (${tally.unfinished})`, ok: null });
    rows.push(zero(`${kind}: messages lost silently`, tally.lost));
    rows.push(zero(`${kind}: messages duplicated`, tally.duplicated));
    rows.push(zero(`${kind}: messages out of order`, tally.outOfOrder));
    rows.push(zero(`${kind}: false x-recovered: true`, tally.falseRecovered));
    rows.push({ measure: `${kind}: continuity signals (new epoch, x-recovered: false)`, value: String(tally.signals), ok: null });
  }
  rows.push(
    {
      measure: 'HTTP requests (documented retry-later answers; no answer, by cause)',
      value: `${http.requests} (${http.retryLater}; ${http.unreachable}${causes(http.unreachableCauses)})`,
      ok: null,
    },
    zero('5xx the specs do not document', http.undocumented5xx),
    zero('crashes (an instance exited unasked)', crashes.length),
  );
  for (const fault of faults) {
    rows.push({
      measure: `recovery after: ${fault.name}`,
      value: fault.recoveryMs === null ? 'not recovered' : `${(fault.recoveryMs / 1000).toFixed(1)} s`,
      ok: fault.recoveryMs === null ? false : null,
    });
  }
  return rows;
}

export function soakTable(rows: SoakRow[]): string {
  const mark = (ok: boolean | null) => (ok === null ? '' : ok ? 'yes' : '**NO**');
  return ['| measure | value | bar met |', '|---|---|---|', ...rows.map((r) => `| ${r.measure} | ${r.value} | ${mark(r.ok)} |`)].join('\n');
}

const causes = (counts: Record<string, number>) => {
  const parts = Object.entries(counts).map(([cause, count]) => `${count} ${cause}`);
  return parts.length > 0 ? `: ${parts.join(', ')}` : '';
};
