// Aligned plain-text table: text columns left-aligned, numeric columns right-aligned.
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_h, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,]+(%|x| ?[µm]?s)?$|^-$/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
