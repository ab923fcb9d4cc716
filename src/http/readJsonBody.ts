// Reads a JSON request body: wrong content type, malformed JSON or JSON nested too deep is COMMON002.
// The size limit is enforced before this by the body-limit middleware (COMMON413).
import type { Context } from 'hono';
import { AppError } from '../kernel/appError.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './jsonDepth.js';

export async function readJsonBody(c: Context, required: boolean): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (!required) return undefined;
    throw new AppError('COMMON002', 'A JSON request body is required.');
  }
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError('COMMON002', 'The request body must be sent as application/json.');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new AppError('COMMON002', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('COMMON002');
  }
}
