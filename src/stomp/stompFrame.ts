// STOMP 1.2 frame model and encoder. Parsing lives in stompParser.ts.

export type StompCommand =
  | 'CONNECT'
  | 'STOMP'
  | 'CONNECTED'
  | 'SEND'
  | 'SUBSCRIBE'
  | 'UNSUBSCRIBE'
  | 'ACK'
  | 'NACK'
  | 'BEGIN'
  | 'COMMIT'
  | 'ABORT'
  | 'DISCONNECT'
  | 'MESSAGE'
  | 'RECEIPT'
  | 'ERROR';

export interface StompFrame {
  command: StompCommand;
  headers: Record<string, string>;
  body: Uint8Array;
}

export const stompCommands: ReadonlySet<string> = new Set<StompCommand>([
  'CONNECT',
  'STOMP',
  'CONNECTED',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
  'MESSAGE',
  'RECEIPT',
  'ERROR',
]);

export function isStompCommand(text: string): text is StompCommand {
  return stompCommands.has(text);
}

/** The spec keeps these two unescaped so that a 1.0 peer can still negotiate. */
export function commandEscapesHeaders(command: StompCommand): boolean {
  return command !== 'CONNECT' && command !== 'CONNECTED';
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * Serialises a frame with LF line endings. `escapeHeaders` (default true) is the 1.1/1.2
 * behaviour; pass false for a 1.0 peer. A `content-length` is added whenever the body is not
 * empty, so bodies may carry NUL bytes.
 * Throws when a header cannot be written without corrupting the frame (a raw CR/LF, or a colon in
 * a name, where escaping is off), or when a caller-set content-length disagrees with the body.
 */
export function encodeFrame(
  frame: { command: StompCommand; headers?: Record<string, string>; body?: string | Uint8Array },
  options?: { escapeHeaders?: boolean },
): Uint8Array {
  const body = typeof frame.body === 'string' ? utf8Encoder.encode(frame.body) : (frame.body ?? new Uint8Array(0));
  const headBytes = utf8Encoder.encode(frameHead(frame.command, frame.headers ?? {}, body.byteLength, options));
  const encoded = new Uint8Array(headBytes.byteLength + body.byteLength + 1);
  encoded.set(headBytes, 0);
  encoded.set(body, headBytes.byteLength);
  // The last byte stays 0: the frame terminator.
  return encoded;
}

/**
 * The same frame as text, for a text WebSocket message: the server's MESSAGE frames carry JSON, so
 * building the string directly spares an encode and a decode per delivered message.
 */
export function encodeTextFrame(
  frame: { command: StompCommand; headers?: Record<string, string>; body?: string },
  options?: { escapeHeaders?: boolean },
): string {
  const body = frame.body ?? '';
  return `${frameHead(frame.command, frame.headers ?? {}, Buffer.byteLength(body, 'utf8'), options)}${body}\0`;
}

function frameHead(command: StompCommand, headers: Record<string, string>, bodyBytes: number, options?: { escapeHeaders?: boolean }): string {
  const escape = (options?.escapeHeaders ?? true) && commandEscapesHeaders(command);
  let head = `${command}\n`;
  for (const [name, value] of Object.entries(headers)) head += headerLine(name, value, escape);
  if (Object.hasOwn(headers, 'content-length')) {
    // A wrong length would make the peer cut the body or swallow the next frame.
    if (headers['content-length'] !== String(bodyBytes)) {
      throw new Error(`content-length header ${headers['content-length']} does not match the ${bodyBytes}-byte body`);
    }
  } else if (bodyBytes > 0) {
    head += `content-length:${bodyBytes}\n`;
  }
  return `${head}\n`;
}

export function frameBodyText(frame: StompFrame): string {
  return utf8Decoder.decode(frame.body);
}

function headerLine(name: string, value: string, escape: boolean): string {
  // The grammar needs at least one octet of name; our parser rejects an empty one too.
  if (name === '') throw new Error('header name must not be empty');
  if (escape) return `${escapeHeaderText(name)}:${escapeHeaderText(value)}\n`;
  if (/[:\r\n]/.test(name) || /[\r\n]/.test(value)) {
    throw new Error(`header ${JSON.stringify(name)} cannot be sent unescaped: it contains CR, LF or a colon in the name`);
  }
  return `${name}:${value}\n`;
}

function escapeHeaderText(text: string): string {
  return text.replace(/[\\:\n\r]/g, (char) => headerEscapes[char] ?? char);
}

const headerEscapes: Record<string, string> = { '\\': '\\\\', ':': '\\c', '\n': '\\n', '\r': '\\r' };
