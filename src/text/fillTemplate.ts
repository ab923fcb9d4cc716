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
