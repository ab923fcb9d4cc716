// The `{name}` placeholders of the specs' templates: OpenAPI paths (`/api/v1/trips/{tripPlanId}`)
// and AsyncAPI channel addresses (`/user/sub/chat/{chatRoomId}`). The one place that knows their
// syntax, so a path is never filled or parsed by a hand-written pattern.
const placeholder = /\{([^}]+)\}/g;

/** The placeholder names of a template, in order: `['tripPlanId', 'dayNumber']`. */
export function placeholderNames(template: string): string[] {
  return [...template.matchAll(placeholder)].map((match) => match[1]!);
}

/** Replaces every placeholder by what `replacement` makes of its name, as is (e.g. Hono's `:name`). */
export function mapPlaceholders(template: string, replacement: (name: string) => string): string {
  return template.replace(placeholder, (_whole, name: string) => replacement(name));
}

/**
 * Fills every placeholder with its value, percent-encoded (RFC 6570 level 1). A placeholder without
 * a value throws: a URL with a literal `{tripPlanId}` in it is never what the caller meant.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>> | ((name: string) => string | number | undefined)): string {
  return mapPlaceholders(template, (name) => {
    const value = typeof values === 'function' ? values(name) : Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new Error(`${template} needs a value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A regular expression source that matches the concrete paths of a template and captures each
 * parameter. A parameter matches any non-empty segment unless `parameterPatterns` narrows it (an
 * anchored regular expression without capturing groups, e.g. a channel parameter's `x-pattern`).
 */
export function templatePattern(template: string, parameterPatterns: Record<string, string> = {}): string {
  const names = placeholderNames(template);
  return `^${template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .reduce((pattern, literal, i) => `${pattern}(${segmentPattern(parameterPatterns[names[i - 1]!])})${literal}`)}$`;
}

function segmentPattern(anchored: string | undefined): string {
  if (anchored === undefined) return '[^/]+';
  if (!anchored.startsWith('^') || !anchored.endsWith('$') || /\((?!\?)/.test(anchored)) {
    throw new Error(`parameter pattern ${anchored} must be anchored (^...$) and have no capturing group`);
  }
  return `(?:${anchored.slice(1, -1)})`;
}
