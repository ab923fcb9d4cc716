// Loss and order judged by the server's own numbering: every MESSAGE on a plan's schedule and
// errors channels carries x-epoch and x-offset from one sequence per plan run, a chat room's from
// its own (asyncapi.yaml). A subscriber present from the start must see 1, 2, 3 … of each sequence
// in one epoch; a gap below the highest offset seen is a lost message, an offset at or below one
// already seen is out of order (or a duplicate). Complements the payload check of
// generationSequence.ts, which also catches a missing tail (nothing numbered after it to show the gap).

export interface OffsetSequence {
  epoch?: string;
  highest: number;
  seen: Set<number>;
  outOfOrder: number;
  /** MESSAGE frames without x-epoch/x-offset, or from a second epoch */
  malformed: number;
}

export const newOffsetSequence = (): OffsetSequence => ({ highest: 0, seen: new Set(), outOfOrder: 0, malformed: 0 });

export function recordOffset(sequence: OffsetSequence, headers: Readonly<Record<string, string>>): void {
  const epoch = headers['x-epoch'];
  const offset = Number(headers['x-offset']);
  if (epoch === undefined || !Number.isInteger(offset) || offset < 1 || (sequence.epoch !== undefined && sequence.epoch !== epoch)) {
    sequence.malformed++;
    return;
  }
  sequence.epoch = epoch;
  if (offset <= sequence.highest) sequence.outOfOrder++;
  else sequence.highest = offset;
  sequence.seen.add(offset);
}

/** offsets 1..highest that never arrived */
export const missingOffsets = (sequence: OffsetSequence): number => sequence.highest - sequence.seen.size;
