// HTTP as the soak's users make it: each call goes to an instance the soak picks, and is retried as
// a well-behaved client retries (another instance when one cannot be reached, after `Retry-After`
// on a documented 503 or 429), until the call's deadline. Every answer is counted: a 5xx that the
// specs do not document (500, 502, 504, or a 503 without COMMON503 and Retry-After) is a defect.
export interface Answer {
  status: number;
  body: unknown;
}

export interface HttpTally {
  requests: number;
  /** documented refusals that asked to come back later (503 COMMON503 / 429 with Retry-After) */
  retryLater: number;
  /** no answer: refused, reset, or timed out (an instance was down or cut off) */
  unreachable: number;
  /** why those requests got no answer: the error code (ECONNREFUSED, ECONNRESET...) or a timeout */
  unreachableCauses: Record<string, number>;
  /** 5xx the specs do not document, with a sample of each kind (method, path, status) */
  undocumented5xx: number;
  samples: string[];
  /** how many of each kind */
  kinds: Record<string, number>;
}

export interface CallOptions {
  deadlineMs?: number;
  once?: boolean;
}

export interface SoakHttp {
  readonly tally: HttpTally;
  /** one request to one instance, counted; null when it got no answer */
  once(baseUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<Answer | null>;
  /**
   * Retried on `pick()`'s instances until an answer that is not a retry-later, or the deadline; null
   * then. A write that is not idempotent sets `once: true`: a request that got no answer may have
   * been applied, so only documented retry-laters (nothing was saved) are sent again.
   */
  call(pick: () => string, method: string, path: string, token?: string, body?: unknown, options?: CallOptions): Promise<Answer | null>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function codeOf(body: unknown): string | null {
  const data = (body as { data?: { code?: unknown } } | null)?.data;
  return typeof data?.code === 'string' ? data.code : null;
}

export function createSoakHttp(): SoakHttp {
  const tally: HttpTally = { requests: 0, retryLater: 0, unreachable: 0, unreachableCauses: {}, undocumented5xx: 0, samples: [], kinds: {} };

  async function once(
    baseUrl: string,
    method: string,
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<(Answer & { retryAfterMs: number | null }) | null> {
    tally.requests++;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
      text = await res.text();
    } catch (error) {
      tally.unreachable++;
      const cause = causeOf(error);
      tally.unreachableCauses[cause] = (tally.unreachableCauses[cause] ?? 0) + 1;
      return null;
    }
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text for the sample
    }
    const retryAfter = res.headers.get('retry-after');
    const retryAfterMs = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : null;
    const documentedLater = (res.status === 503 && codeOf(parsed) === 'COMMON503') || (res.status === 429 && codeOf(parsed) === 'COMMON429');
    // The readiness probe's 503 (NotReady) is its documented answer and carries no Retry-After.
    const notReady = path === '/readyz' && res.status === 503 && codeOf(parsed) === 'COMMON503';
    if (documentedLater && retryAfterMs !== null) tally.retryLater++;
    else if (res.status >= 500 && !notReady) {
      tally.undocumented5xx++;
      const kind = `${method} ${path.replace(/\/\d+/g, '/{id}').replace(/\?.*$/, '')} ${res.status}`;
      tally.kinds[kind] = (tally.kinds[kind] ?? 0) + 1;
      if (tally.kinds[kind] === 1 && tally.samples.length < 10) tally.samples.push(`${method} ${path} on ${baseUrl}: ${res.status} ${text.slice(0, 300)}`);
    }
    return { status: res.status, body: parsed, retryAfterMs: documentedLater ? retryAfterMs : null };
  }

  return {
    tally,
    once,
    async call(pick, method, path, token, body, options = {}) {
      const deadline = Date.now() + (options.deadlineMs ?? 60_000);
      while (Date.now() < deadline) {
        const answer = await once(pick(), method, path, token, body);
        if (answer && answer.retryAfterMs === null) return answer;
        if (!answer && options.once) return null;
        // A real client waits as asked; the soak caps it so that a long Retry-After does not idle a user.
        await sleep(Math.min(answer?.retryAfterMs ?? 250, 1_000));
      }
      return null;
    },
  };
}

/** Why fetch got no answer: the socket error's code, or that none came within the call's timeout. */
function causeOf(error: unknown): string {
  const { name, cause } = error as { name?: string; cause?: { code?: string } };
  if (name === 'TimeoutError') return 'no answer within 15 s';
  return cause?.code ?? name ?? 'unknown';
}
