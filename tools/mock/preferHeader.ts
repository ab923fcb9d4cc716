// Reads the Prism-style `Prefer` request header (`Prefer: code=404`, `Prefer: example=expiredToken`,
// or both: `code=401, example=expiredToken`), which lets a client ask the mock for a documented
// response other than the default success.

export interface MockPreference {
  code?: number;
  example?: string;
}

export function parsePrefer(header: string | undefined): MockPreference {
  const preference: MockPreference = {};
  if (!header) return preference;
  for (const part of header.split(/[,;]/)) {
    const [rawKey, ...rest] = part.split('=');
    const key = rawKey?.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (!value) continue;
    if (key === 'code' && /^\d{3}$/.test(value)) preference.code = Number(value);
    if (key === 'example') preference.example = value;
  }
  return preference;
}
