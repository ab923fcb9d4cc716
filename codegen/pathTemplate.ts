// A path or channel address template (`/api/v1/trips/{tripPlanId}`, `/user/sub/chat/{chatRoomId}`)
// as the source of a regular expression that matches concrete paths and captures each parameter.
export function templatePattern(template: string): string {
  return `^${template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('([^/]+)')}$`;
}
