// Incremental STOMP 1.2 parser for frames arriving as WebSocket messages. Works on bytes, so a
// frame may be split anywhere (inside a UTF-8 character, an escape or a CRLF) and several frames
// may share one message. Memory per connection is bounded by maxFrameBytes; the number of header
// lines and the length of each line are bounded too (asyncapi.yaml, servers.stomp), and checked as
// bytes arrive, so an oversized head is refused without buffering or scanning it again.
import { commandEscapesHeaders, isStompCommand } from './stompFrame.js';
import type { StompCommand, StompFrame } from './stompFrame.js';

export class StompFrameError extends Error {
  readonly code = 'WS102' as const;
  override readonly name = 'StompFrameError';
}

/** Header lines one frame may have (asyncapi.yaml); stompjs sends at most a handful. */
export const MAX_STOMP_HEADERS = 64;
/** Bytes of one command or header line as sent (escapes included, EOL excluded); fits a 4 KiB token. */
export const MAX_STOMP_HEADER_LINE_BYTES = 8192;

export interface StompParserOptions {
  /** Wire bytes of one frame, from the first command byte through the terminating NUL. */
  maxFrameBytes: number;
  /** Header lines of one frame, repeated names included; default MAX_STOMP_HEADERS. */
  maxHeaders?: number;
  /** Bytes of one command or header line, without its EOL; default MAX_STOMP_HEADER_LINE_BYTES. */
  maxHeaderLineBytes?: number;
  /** false for STOMP 1.0, true (default) for 1.1 and 1.2. */
  escapeHeaders?: boolean;
}

export interface StompParser {
  /** Feed one WebSocket message (text or binary). Returns the complete frames it finished, in order, and how many heart-beats (bare EOLs between frames) it saw. Throws StompFrameError. */
  push(chunk: string | Uint8Array): { frames: StompFrame[]; heartbeats: number };
  /** Applies from the next frame whose command line has not been read yet. */
  setEscapeHeaders(enabled: boolean): void;
  /** true between frames with nothing held: a parser made afresh would go on the same (so an idle connection need not keep one) */
  idle(): boolean;
}

const NUL = 0x00;
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

type Phase =
  | 'betweenFrames'
  | 'betweenFramesAfterCr' // a CR was seen between frames; only LF may follow
  | 'commandLine'
  | 'headerLines'
  | 'sizedBody' // content-length given: copy exactly that many bytes
  | 'sizedBodyTerminator' // the NUL that must follow a sized body
  | 'nulTerminatedBody';

const utf8Encoder = new TextEncoder();
// fatal: a header that is not UTF-8 is a malformed frame, not something to paper over with U+FFFD.
// ignoreBOM: a header value that starts with U+FEFF must keep it.
const strictUtf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function createStompParser(options: StompParserOptions): StompParser {
  const { maxFrameBytes, maxHeaders = MAX_STOMP_HEADERS, maxHeaderLineBytes = MAX_STOMP_HEADER_LINE_BYTES } = options;
  if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1) {
    throw new RangeError(`maxFrameBytes must be a positive integer, got ${maxFrameBytes}`);
  }
  let escapeHeaders = options.escapeHeaders ?? true;

  let phase: Phase = 'betweenFrames';
  // After an error the stream position is unknown, so every later push fails the same way.
  let failure: { error: unknown } | undefined;
  // Bytes of the current frame seen so far plus the NUL it still owes, so a frame that cannot
  // fit is rejected as soon as its bytes arrive rather than when the NUL finally does.
  let frameBytes = 0;
  // A line or NUL-terminated body that spans pushes; caller buffers are never retained.
  const pending = new GrowableBytes(maxFrameBytes);
  let command: StompCommand = 'SEND';
  let escapeThisFrame = false;
  let headers = new Map<string, string>();
  let headerLines = 0;
  let sizedBody = new Uint8Array(0);
  let sizedBodyFilled = 0;

  function countFrameBytes(count: number): void {
    frameBytes += count;
    if (frameBytes > maxFrameBytes) throw new StompFrameError(`frame exceeds ${maxFrameBytes} bytes`);
  }

  function startFrame(): void {
    phase = 'commandLine';
    frameBytes = 1;
    headers = new Map();
    headerLines = 0;
  }

  function checkLineLength(bytes: number): void {
    // A CR before the LF is part of the EOL, so one byte of slack.
    if (bytes > maxHeaderLineBytes + 1)
      throw new StompFrameError(`a ${phase === 'commandLine' ? 'command' : 'header'} line exceeds ${maxHeaderLineBytes} bytes`);
  }

  function finishFrame(body: Uint8Array): StompFrame {
    phase = 'betweenFrames';
    const frame: StompFrame = { command, headers: Object.fromEntries(headers), body };
    headers = new Map();
    sizedBody = new Uint8Array(0);
    return frame;
  }

  function readLine(line: Uint8Array): void {
    // EOL is LF or CRLF.
    const content = line.byteLength > 0 && line[line.byteLength - 1] === CR ? line.subarray(0, -1) : line;
    if (phase === 'commandLine') readCommandLine(content);
    else if (content.byteLength === 0) startBody();
    else readHeaderLine(content);
  }

  function readCommandLine(line: Uint8Array): void {
    const text = decodeUtf8(line, 'command');
    if (!isStompCommand(text)) throw new StompFrameError(`unknown command ${JSON.stringify(text.slice(0, 40))}`);
    command = text;
    escapeThisFrame = escapeHeaders && commandEscapesHeaders(command);
    phase = 'headerLines';
  }

  function readHeaderLine(line: Uint8Array): void {
    if (++headerLines > maxHeaders) throw new StompFrameError(`${command} frame has more than ${maxHeaders} headers`);
    const colon = line.indexOf(COLON);
    if (colon === -1) throw new StompFrameError(`header line without a colon in ${command} frame`);
    if (colon === 0) throw new StompFrameError(`header with an empty name in ${command} frame`);
    let name = decodeUtf8(line.subarray(0, colon), 'header name');
    let value = decodeUtf8(line.subarray(colon + 1), 'header value');
    if (escapeThisFrame) {
      name = unescapeHeaderText(name);
      value = unescapeHeaderText(value);
    }
    // Repeated headers: the spec says only the first occurrence counts.
    if (!headers.has(name)) headers.set(name, value);
  }

  function startBody(): void {
    const declaredLength = headers.get('content-length');
    if (declaredLength === undefined) {
      phase = 'nulTerminatedBody';
      return;
    }
    if (!/^[0-9]+$/.test(declaredLength)) {
      throw new StompFrameError(`invalid content-length ${JSON.stringify(declaredLength.slice(0, 40))}`);
    }
    const length = Number(declaredLength);
    // Reject before allocating or waiting for the body.
    if (frameBytes + length > maxFrameBytes) {
      throw new StompFrameError(`content-length ${declaredLength.slice(0, 40)} makes the frame exceed ${maxFrameBytes} bytes`);
    }
    frameBytes += length;
    sizedBody = new Uint8Array(length);
    sizedBodyFilled = 0;
    phase = length === 0 ? 'sizedBodyTerminator' : 'sizedBody';
  }

  /** Consumes bytes of the current phase from `position` and returns where it stopped. */
  function step(bytes: Uint8Array, position: number, onFrame: (frame: StompFrame) => void, onHeartbeat: () => void): number {
    switch (phase) {
      case 'betweenFrames': {
        const byte = bytes[position];
        if (byte === LF) {
          onHeartbeat();
          return position + 1;
        }
        if (byte === CR) {
          phase = 'betweenFramesAfterCr';
          return position + 1;
        }
        if (byte === NUL) throw new StompFrameError('NUL byte outside a frame');
        startFrame();
        return position;
      }
      case 'betweenFramesAfterCr': {
        if (bytes[position] !== LF) throw new StompFrameError('CR not followed by LF between frames');
        onHeartbeat();
        phase = 'betweenFrames';
        return position + 1;
      }
      case 'commandLine':
      case 'headerLines': {
        const lineFeed = bytes.indexOf(LF, position);
        if (lineFeed === -1) {
          checkLineLength(pending.size + bytes.byteLength - position);
          countFrameBytes(bytes.byteLength - position);
          pending.append(bytes.subarray(position));
          return bytes.byteLength;
        }
        checkLineLength(pending.size + lineFeed - position);
        countFrameBytes(lineFeed + 1 - position);
        const ownBytes = bytes.subarray(position, lineFeed);
        // Decoded at once, so a view of the caller's chunk or of `pending` is safe here.
        readLine(pending.isEmpty() ? ownBytes : pending.append(ownBytes).takeView());
        return lineFeed + 1;
      }
      case 'sizedBody': {
        const take = Math.min(sizedBody.byteLength - sizedBodyFilled, bytes.byteLength - position);
        sizedBody.set(bytes.subarray(position, position + take), sizedBodyFilled);
        sizedBodyFilled += take;
        if (sizedBodyFilled === sizedBody.byteLength) phase = 'sizedBodyTerminator';
        return position + take;
      }
      case 'sizedBodyTerminator': {
        if (bytes[position] !== NUL) {
          throw new StompFrameError(`${command} frame has more bytes than its content-length and no NUL after them`);
        }
        onFrame(finishFrame(sizedBody));
        return position + 1;
      }
      case 'nulTerminatedBody': {
        const nul = bytes.indexOf(NUL, position);
        if (nul === -1) {
          countFrameBytes(bytes.byteLength - position);
          pending.append(bytes.subarray(position));
          return bytes.byteLength;
        }
        countFrameBytes(nul - position);
        const ownBytes = bytes.subarray(position, nul);
        onFrame(finishFrame(pending.isEmpty() ? ownBytes.slice() : pending.append(ownBytes).takeCopy()));
        return nul + 1;
      }
    }
  }

  function push(chunk: string | Uint8Array): { frames: StompFrame[]; heartbeats: number } {
    if (failure) throw failure.error;
    const bytes = typeof chunk === 'string' ? utf8Encoder.encode(chunk) : chunk;
    const frames: StompFrame[] = [];
    let heartbeats = 0;
    const onFrame = (frame: StompFrame): void => void frames.push(frame);
    const onHeartbeat = (): void => void (heartbeats += 1);
    try {
      let position = 0;
      while (position < bytes.byteLength) position = step(bytes, position, onFrame, onHeartbeat);
    } catch (error) {
      failure = { error };
      throw error;
    }
    return { frames, heartbeats };
  }

  return {
    push,
    setEscapeHeaders(enabled: boolean): void {
      escapeHeaders = enabled;
    },
    idle: () => phase === 'betweenFrames' && !failure && pending.isEmpty(),
  };
}

/** Append-only byte buffer with amortised growth, capped at the frame limit. */
class GrowableBytes {
  private buffer = new Uint8Array(0);
  private length = 0;

  constructor(private readonly maxBytes: number) {}

  isEmpty(): boolean {
    return this.length === 0;
  }

  get size(): number {
    return this.length;
  }

  append(bytes: Uint8Array): this {
    const needed = this.length + bytes.byteLength;
    if (needed > this.buffer.byteLength) {
      const grown = new Uint8Array(Math.max(needed, Math.min(this.maxBytes, Math.max(256, this.buffer.byteLength * 2))));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.length);
    this.length = needed;
    return this;
  }

  /** Valid only until the next append. */
  takeView(): Uint8Array {
    const view = this.buffer.subarray(0, this.length);
    this.reset();
    return view;
  }

  takeCopy(): Uint8Array {
    const copy = this.buffer.slice(0, this.length);
    this.reset();
    return copy;
  }

  private reset(): void {
    this.length = 0;
    // Let an idle connection give back the memory of one large frame.
    if (this.buffer.byteLength > 4096) this.buffer = new Uint8Array(0);
  }
}

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8Decoder.decode(bytes);
  } catch {
    throw new StompFrameError(`${what} is not valid UTF-8`);
  }
}

const headerUnescapes: Record<string, string> = { '\\': '\\', c: ':', n: '\n', r: '\r' };

function unescapeHeaderText(text: string): string {
  if (!text.includes('\\')) return text;
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char !== '\\') {
      result += char;
      continue;
    }
    const next = text[index + 1];
    const replacement = next === undefined ? undefined : headerUnescapes[next];
    if (replacement === undefined) {
      throw new StompFrameError(`invalid header escape ${JSON.stringify(`\\${next ?? ''}`)}`);
    }
    result += replacement;
    index += 1;
  }
  return result;
}
