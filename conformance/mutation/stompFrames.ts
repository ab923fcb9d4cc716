// STOMP frames as the mutating proxy reads them, in both directions: an incremental reader over the
// bytes of WebSocket messages (a frame may span messages, several may share one), the heart-beats
// between frames (a bare EOL), and the writer of a frame an operator changed. The reader is lenient
// about commands (a client's garbage frame is forwarded for the server to refuse) but strict about
// framing: what it cannot frame it refuses, and the relay then passes the bytes on untouched.

/** One frame, headers decoded, in the order sent (a repeated name keeps every line; the first counts). */
export interface StompFrame {
  command: string;
  headers: [string, string][];
  body: Buffer;
}

/** What the reader found: a frame with its bytes as they came, or a heart-beat (its EOL). */
export type StompChunk = { kind: 'frame'; frame: StompFrame; raw: Buffer } | { kind: 'heartbeat'; raw: Buffer };

export class StompFramingError extends Error {}

const NUL = 0x00;
const LF = 0x0a;
const CR = 0x0d;

/** CONNECT and CONNECTED keep their headers unescaped (STOMP 1.2), so a 1.0 peer can negotiate. */
const escapes = (command: string, escaping: boolean) => escaping && command !== 'CONNECT' && command !== 'CONNECTED' && command !== 'STOMP';

const unescapes: Record<string, string> = { '\\\\': '\\', '\\c': ':', '\\n': '\n', '\\r': '\r' };
const escapesOf: Record<string, string> = { '\\': '\\\\', ':': '\\c', '\n': '\\n', '\r': '\\r' };

const decodeHeaderText = (text: string, escaping: boolean) => (escaping ? text.replace(/\\[\\cnr]/g, (escape) => unescapes[escape]!) : text);
const encodeHeaderText = (text: string, escaping: boolean) => (escaping ? text.replace(/[\\:\n\r]/g, (char) => escapesOf[char]!) : text);

/** The value of a frame's header (the first line of that name), or undefined. */
export const headerOf = (frame: StompFrame, name: string): string | undefined => frame.headers.find(([n]) => n === name)?.[1];

/** The frame with `name` set to `value` (its first line replaced, or a line added). */
export function withHeader(frame: StompFrame, name: string, value: string): StompFrame {
  const index = frame.headers.findIndex(([n]) => n === name);
  const headers = [...frame.headers];
  if (index === -1) headers.push([name, value]);
  else headers[index] = [name, value];
  return { ...frame, headers };
}

/** The frame without any line of header `name`. */
export const withoutHeader = (frame: StompFrame, name: string): StompFrame => ({ ...frame, headers: frame.headers.filter(([n]) => n !== name) });

/** The body as JSON, or undefined when it is not JSON. */
export function jsonBodyOf(frame: StompFrame): unknown {
  try {
    return JSON.parse(frame.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The frame with `value` as its JSON body. */
export const withJsonBody = (frame: StompFrame, value: unknown): StompFrame => ({ ...frame, body: Buffer.from(JSON.stringify(value), 'utf8') });

/** The frame's bytes. A `content-length` it carries is set to its body's length, so a changed body stays framed. */
export function encodeStompFrame(frame: StompFrame, escaping = true): Buffer {
  const escape = escapes(frame.command, escaping);
  const lines = frame.headers.map(([name, value]) => {
    const sent = name === 'content-length' ? String(frame.body.length) : value;
    return `${encodeHeaderText(name, escape)}:${encodeHeaderText(sent, escape)}\n`;
  });
  return Buffer.concat([Buffer.from(`${frame.command}\n${lines.join('')}\n`, 'utf8'), frame.body, Buffer.from([NUL])]);
}

/** What one push completed, and the bytes it could not frame (forwarded as they are: the reader passes everything on from then on). */
export interface ReadResult {
  chunks: StompChunk[];
  unframed: Buffer | null;
  /** why the bytes could not be framed (the first time only) */
  failure?: string;
}

/** Reads frames and heart-beats from the bytes of one direction of a connection. */
export class StompFrameReader {
  private held: Buffer = Buffer.alloc(0);
  private passingThrough = false;
  /** STOMP 1.1 and 1.2 escape header values; 1.0 does not (the relay says which once it saw CONNECTED) */
  escaping = true;

  constructor(private readonly maxFrameBytes: number) {}

  /** Everything the bytes completed, in order. Bytes that are not frames, or a frame over the limit, end the reading for good. */
  push(bytes: Buffer): ReadResult {
    if (this.passingThrough) return { chunks: [], unframed: bytes };
    this.held = this.held.length === 0 ? bytes : Buffer.concat([this.held, bytes]);
    const chunks: StompChunk[] = [];
    try {
      for (let chunk = this.next(); chunk; chunk = this.next()) chunks.push(chunk);
      if (this.held.length > this.maxFrameBytes) throw new StompFramingError(`a frame over ${this.maxFrameBytes} bytes`);
    } catch (error) {
      if (!(error instanceof StompFramingError)) throw error;
      this.passingThrough = true;
      const unframed = this.held;
      this.held = Buffer.alloc(0);
      return { chunks, unframed, failure: error.message };
    }
    return { chunks, unframed: null };
  }

  /** The next complete chunk at the start of `held` (taken off it), or null when it needs more bytes. */
  private next(): StompChunk | null {
    const held = this.held;
    if (held.length === 0) return null;
    if (held[0] === LF || (held[0] === CR && held[1] === LF)) return this.take(held[0] === LF ? 1 : 2, null);
    if (held[0] === CR && held.length === 1) return null;
    if (held[0] === CR || held[0] === NUL) throw new StompFramingError('a byte between frames that is neither a frame nor a heart-beat');
    const headEnd = findHeadEnd(held);
    if (headEnd === null) return null;
    const head = held.subarray(0, headEnd.at).toString('utf8');
    const [commandLine = '', ...headerLines] = head.split('\n').map((line) => line.replace(/\r$/, ''));
    const escaping = escapes(commandLine, this.escaping);
    const headers = headerLines.map((line): [string, string] => {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompFramingError(`a header line without a name and a colon: ${JSON.stringify(line.slice(0, 80))}`);
      return [decodeHeaderText(line.slice(0, colon), escaping), decodeHeaderText(line.slice(colon + 1), escaping)];
    });
    const bodyStart = headEnd.at + headEnd.length;
    const lengthText = headers.find(([name]) => name === 'content-length')?.[1];
    let bodyEnd: number;
    if (lengthText !== undefined) {
      if (!/^[0-9]{1,10}$/.test(lengthText)) throw new StompFramingError(`content-length ${JSON.stringify(lengthText)}`);
      bodyEnd = bodyStart + Number(lengthText);
      if (held.length <= bodyEnd) return null;
      if (held[bodyEnd] !== NUL) throw new StompFramingError('a sized body not followed by NUL');
    } else {
      bodyEnd = held.indexOf(NUL, bodyStart);
      if (bodyEnd === -1) return null;
    }
    const frame: StompFrame = { command: commandLine, headers, body: Buffer.from(held.subarray(bodyStart, bodyEnd)) };
    return this.take(bodyEnd + 1, frame);
  }

  private take(length: number, frame: StompFrame | null): StompChunk {
    const raw = Buffer.from(this.held.subarray(0, length));
    this.held = this.held.subarray(length);
    return frame ? { kind: 'frame', frame, raw } : { kind: 'heartbeat', raw };
  }
}

/** Where the head of the frame at the start of `bytes` ends: its blank line (LF LF, or CRLF CRLF and mixes). */
function findHeadEnd(bytes: Buffer): { at: number; length: number } | null {
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) {
    if (bytes[i + 1] === LF) return { at: i, length: 2 };
    if (bytes[i + 1] === CR && bytes[i + 2] === LF) return { at: i, length: 3 };
  }
  return null;
}
