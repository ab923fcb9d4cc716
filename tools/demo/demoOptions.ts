// Command line of `npm run demo`: flags with defaults that work against `npm start` on a fresh clone.
import { parseArgs } from 'node:util';
import type { TripPlanCreateRequest } from '../client/tripApi.js';

export interface DemoOptions {
  baseUrl: string;
  email: string;
  trip: TripPlanCreateRequest;
  timeoutSeconds: number;
}

export class UsageError extends Error {}

export const demoUsage = `usage: npm run demo -- [--base-url URL] [--email ADDRESS] [--region NAME] [--days N]
                      [--themes A,B] [--start YYYY-MM-DD] [--timeout SECONDS]
  --base-url  the running service (default BASE_URL or http://localhost:8080)
  --email     dev-login address (default demo@example.com)
  --region    Busan, Seoul, Jeju, Gyeongju, Gangneung, Jeonju (default Busan)
  --days      trip length (default 3)
  --themes    comma-separated PlaceThemeType values (default FAMOUS_SPOT,RESTAURANT)
  --start     first day (default 30 days from today)
  --timeout   seconds to wait for the generation and the edit (default 120)
exit code: 0 done, 1 failed (unreachable server, refused request, errors-channel message), 2 timed out`;

const themeNames = ['FAMOUS_SPOT', 'HEALING', 'SNS_HOTSPOT', 'EXPERIENCE_ACTIVITY', 'CULTURE_ART', 'SHOPPING', 'RESTAURANT'] as const;
type Theme = (typeof themeNames)[number];

function isoDateInDays(days: number, now = Date.now()): string {
  return new Date(now + days * 86_400_000).toISOString().slice(0, 10);
}

function positiveNumber(name: string, raw: string, integer: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new UsageError(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  return value;
}

function themesOf(raw: string): Theme[] {
  const themes = raw
    .split(',')
    .map((t) => t.trim().toUpperCase())
    .filter(Boolean);
  const unknown = themes.filter((t) => !(themeNames as readonly string[]).includes(t));
  if (themes.length === 0 || unknown.length > 0) throw new UsageError(`--themes takes ${themeNames.join(', ')}; got "${raw}"`);
  return themes as Theme[];
}

/** Returns null when --help was asked for. */
export function parseDemoOptions(argv: string[], env: NodeJS.ProcessEnv): DemoOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        email: { type: 'string', default: 'demo@example.com' },
        region: { type: 'string', default: 'Busan' },
        days: { type: 'string', default: '3' },
        themes: { type: 'string', default: 'FAMOUS_SPOT,RESTAURANT' },
        start: { type: 'string', default: isoDateInDays(30) },
        timeout: { type: 'string', default: '120' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.start)) throw new UsageError(`--start must be a date YYYY-MM-DD, got "${values.start}"`);
  const baseUrl = values['base-url'] ?? env.BASE_URL ?? 'http://localhost:8080';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, got "${baseUrl}"`);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    email: values.email,
    trip: {
      region: values.region,
      duration: positiveNumber('days', values.days, true),
      themes: themesOf(values.themes),
      startDate: values.start,
      peopleCount: 2,
      transportation: 'PUBLIC_TRANSIT',
    },
    timeoutSeconds: positiveNumber('timeout', values.timeout, false),
  };
}
