// Reads a JSON request body: wrong content type or malformed JSON is COMMON002. The size limit is
// enforced before this by the body-limit middleware (COMMON413).
import type { Context } from 'hono';
import { AppError } from './appError.js';

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
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('COMMON002');
  }
}
