// The benchmark's x-offset judge: it must report a gap, a late or repeated offset and a second
// epoch, or a benchmark saying "0 lost" proves nothing.
import { describe, expect, it } from 'vitest';
import { missingOffsets, newOffsetSequence, recordOffset } from '../../bench/lib/offsetOrder.js';

const frame = (offset: number | string, epoch = 'e1') => ({ 'x-epoch': epoch, 'x-offset': String(offset) });

describe('offset order of the realtime benchmark', () => {
  it('accepts 1, 2, 3 in one epoch', () => {
    const sequence = newOffsetSequence();
    for (const offset of [1, 2, 3]) recordOffset(sequence, frame(offset));
    expect({ missing: missingOffsets(sequence), outOfOrder: sequence.outOfOrder, malformed: sequence.malformed }).toEqual({
      missing: 0,
      outOfOrder: 0,
      malformed: 0,
    });
  });

  it('counts a gap as missing until the offset arrives, then as out of order', () => {
    const sequence = newOffsetSequence();
    for (const offset of [1, 3, 4]) recordOffset(sequence, frame(offset));
    expect(missingOffsets(sequence)).toBe(1);
    recordOffset(sequence, frame(2));
    expect(missingOffsets(sequence)).toBe(0);
    expect(sequence.outOfOrder).toBe(1);
  });

  it('counts a duplicate as out of order', () => {
    const sequence = newOffsetSequence();
    for (const offset of [1, 2, 2, 3]) recordOffset(sequence, frame(offset));
    expect(sequence.outOfOrder).toBe(1);
    expect(missingOffsets(sequence)).toBe(0);
  });

  it('counts frames without headers, with a bad offset or from a second epoch as malformed', () => {
    const sequence = newOffsetSequence();
    recordOffset(sequence, frame(1));
    recordOffset(sequence, {});
    recordOffset(sequence, frame('0'));
    recordOffset(sequence, frame('x'));
    recordOffset(sequence, frame(2, 'e2'));
    expect(sequence.malformed).toBe(4);
    expect(sequence.highest).toBe(1);
  });
});
