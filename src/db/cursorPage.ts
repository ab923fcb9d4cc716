// Cursor pages: repositories fetch `size + 1` rows in keyset order; the extra row only tells
// whether another page exists. `nextCursor` is the id of the last item shown.
export interface CursorPage<T> {
  content: T[];
  nextCursor: number | null;
  hasNext: boolean;
  size: number;
}

export function toCursorPage<Row extends { id: number }, T>(rows: Row[], size: number, map: (row: Row) => T): CursorPage<T> {
  const hasNext = rows.length > size;
  const shown = hasNext ? rows.slice(0, size) : rows;
  return {
    content: shown.map(map),
    nextCursor: hasNext ? shown[shown.length - 1]!.id : null,
    hasNext,
    size: shown.length,
  };
}
