// A path or channel address template (`/api/v1/trips/{tripPlanId}`, `/user/sub/chat/{chatRoomId}`)
// as the source of a regular expression that matches concrete paths and captures each parameter.
// A parameter matches any non-empty segment unless `parameterPatterns` narrows it (an anchored
// regular expression without capturing groups, e.g. a channel parameter's `x-pattern`).
export function templatePattern(template: string, parameterPatterns: Record<string, string> = {}): string {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
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
