// An answer as a Result: a success's envelope `data` (or its text, or nothing), an error status's
// ErrorResponse. A success that breaks the contract (not the JSON envelope it promised) rejects:
// there is no Result to give for it.
import type { ApiError, Failure, Success } from './result.js';

const isJson = (contentType: string | null): boolean => contentType !== null && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The ErrorResponse of an ErrorEnvelope, or null when the body is none. */
function errorOf(body: unknown): ApiError | null {
  if (!isObject(body) || !isObject(body.data)) return null;
  const { code, message } = body.data;
  return typeof code === 'string' && typeof message === 'string' ? (body.data as ApiError) : null;
}

export async function readResult(operationId: string, response: Response): Promise<Success<number, unknown> | Failure> {
  const { status, headers } = response;
  if (response.type === 'opaqueredirect') {
    throw new Error(
      `${operationId}: the answer is a redirect a browser does not show to scripts; send the browser to the client's url('${operationId}', ...) instead`,
    );
  }
  const text = await response.text();
  const contentType = headers.get('content-type');
  if (status >= 400) return { ok: false, status, error: isJson(contentType) ? errorOf(parsed(text)) : null, headers };
  if (text === '') return { ok: true, status, data: undefined, headers };
  if (!isJson(contentType)) return { ok: true, status, data: text, headers };
  const envelope = parsed(text);
  if (!isObject(envelope) || !('data' in envelope)) throw new Error(`${operationId}: the ${status} answer is not a JSON envelope with data`);
  return { ok: true, status, data: envelope.data, headers };
}
