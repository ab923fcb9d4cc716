// The text of an HTTP response, read up to a number of bytes: a server that declares or sends more
// is refused at the cap, so a huge or endless body costs the reader no more than the cap in memory.
// The served specs, the bodies of the server under test and its frames are all read this way.

/** The body was over the cap: declared so in Content-Length, or found so while it was read. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly maxBytes: number,
    /** the Content-Length that was over the cap; undefined when the body grew past it while being read */
    readonly declaredBytes?: number,
  ) {
    super(
      declaredBytes === undefined
        ? `the body is over the limit of ${maxBytes} bytes (reading stopped there)`
        : `the body declares ${declaredBytes} bytes (Content-Length), over the limit of ${maxBytes}`,
    );
    this.name = 'BodyTooLargeError';
  }
}

/** The body as UTF-8 text; throws BodyTooLargeError, having cancelled the rest, when it is over `maxBytes`. */
export async function readTextWithin(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes, declared);
  }
  if (!response.body) return '';
  // fetch's body yields bytes (Node's types leave the chunk type open).
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
