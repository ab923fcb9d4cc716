// A whole-number command-line option of a benchmark, or an error that names it and shows the usage.
export function integerOption(name: string, raw: string, usage: string, min = 1): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"\n${usage}`);
  return value;
}
