// The `x-mock-fault` header: how a client asks the mock for a fault on one HTTP request, one STOMP
// connection (CONNECT) or one subscription (SUBSCRIBE), so parallel clients do not disturb each
// other. Its value is `;`-separated settings, `name=value` or a bare flag, e.g.
// `drop-after=3`, `trim-history`, `status=503; retry-after=2; times=2; id=retry-test-7`
// (docs/mock.md lists them). The service never reads it.
import { errorTextLimits, truncateText } from '../../src/index.js';

export const FAULT_HEADER = 'x-mock-fault';

/** Where the header was sent; each place takes its own settings (besides id and times). */
export type FaultPlace = 'CONNECT' | 'SUBSCRIBE' | 'HTTP';

export interface FaultRequest {
  /** STOMP: the connection (or, on SUBSCRIBE, the subscription) is dropped right after its k-th MESSAGE */
  dropAfter?: number;
  /** STOMP: the k-th MESSAGE of the connection (or subscription) is sent twice */
  duplicate?: number;
  /** SUBSCRIBE: the history is gone, so a replay (x-since, x-replay) is answered x-recovered: false */
  trimHistory?: boolean;
  /** HTTP, on startTripPlanGeneration: the run begins a new epoch after its k-th message */
  newEpochAfter?: number;
  /** HTTP: answered with this documented status (and Retry-After) instead of the usual answer */
  status?: 429 | 503;
  /** HTTP, with status: the Retry-After seconds (default 1) */
  retryAfter?: number;
  /** the key the fault is counted under: only the first `times` carriers of an id get it */
  id?: string;
  times?: number;
}

export interface FaultProblem {
  problem: string;
}

/** One setting: its name in the header, where it may be sent, what its value is, and how it is read. */
interface Setting {
  name: string;
  key: keyof FaultRequest;
  places: FaultPlace[];
  takes: string;
  /** the value of the setting (null: a bare flag), or undefined when it is not one it takes */
  read: (value: string | null) => FaultRequest[keyof FaultRequest];
}

const count = (value: string | null): number | undefined => (value !== null && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : undefined);
const everywhere: FaultPlace[] = ['CONNECT', 'SUBSCRIBE', 'HTTP'];
const settings: Setting[] = [
  { name: 'drop-after', key: 'dropAfter', places: ['CONNECT', 'SUBSCRIBE'], takes: 'a count from 1', read: count },
  { name: 'duplicate', key: 'duplicate', places: ['CONNECT', 'SUBSCRIBE'], takes: 'a count from 1', read: count },
  { name: 'trim-history', key: 'trimHistory', places: ['SUBSCRIBE'], takes: 'no value', read: (value) => (value === null ? true : undefined) },
  { name: 'new-epoch-after', key: 'newEpochAfter', places: ['HTTP'], takes: 'a count from 1', read: count },
  { name: 'status', key: 'status', places: ['HTTP'], takes: '429 or 503', read: (value) => (value === '429' ? 429 : value === '503' ? 503 : undefined) },
  { name: 'retry-after', key: 'retryAfter', places: ['HTTP'], takes: 'seconds from 1', read: count },
  {
    name: 'id',
    key: 'id',
    places: everywhere,
    takes: '1 to 64 of A-Z a-z 0-9 . _ -',
    read: (value) => (value !== null && /^[A-Za-z0-9._-]{1,64}$/.test(value) ? value : undefined),
  },
  { name: 'times', key: 'times', places: everywhere, takes: 'a count from 1', read: count },
];

/** What the client wrote, as a problem quotes it: cut like a rejected value of an error body. */
const quoted = (text: string) => JSON.stringify(truncateText(text, errorTextLimits.rejectedValue));

/** The faults `value` asks for at `place`; null when the header is absent. */
export function readFaultHeader(value: string | undefined, place: FaultPlace): FaultRequest | FaultProblem | null {
  if (value === undefined) return null;
  const request: FaultRequest = {};
  const taken = settings.filter((s) => s.places.includes(place)).map((s) => s.name);
  for (const part of value.split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const equals = text.indexOf('=');
    const name = (equals === -1 ? text : text.slice(0, equals)).trim().toLowerCase();
    const raw = equals === -1 ? null : text.slice(equals + 1).trim();
    const setting = settings.find((s) => s.name === name && s.places.includes(place));
    if (!setting) return { problem: `${FAULT_HEADER} on ${place === 'HTTP' ? 'a request' : place} takes ${taken.join(', ')}; not ${quoted(name)}.` };
    const read = setting.read(raw);
    if (read === undefined) return { problem: `${FAULT_HEADER}: ${name} takes ${setting.takes}, not ${quoted(raw ?? '')}.` };
    Object.assign(request, { [setting.key]: read });
  }
  if (request.times !== undefined && request.id === undefined) return { problem: `${FAULT_HEADER}: times needs an id to count under.` };
  if (request.retryAfter !== undefined && request.status === undefined) return { problem: `${FAULT_HEADER}: retry-after goes with status.` };
  return request;
}
