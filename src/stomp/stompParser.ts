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

/** Everything one parser holds between pushes; the functions below are its states' transitions. */
interface ParserState {
  readonly maxFrameBytes: number;
  readonly maxHeaders: number;
  readonly maxHeaderLineBytes: number;
  escapeHeaders: boolean;
  phase: Phase;
  // After an error the stream position is unknown, so every later push fails the same way.
  failure: { error: unknown } | undefined;
  // Bytes of the current frame seen so far plus the NUL it still owes, so a frame that cannot
  // fit is rejected as soon as its bytes arrive rather than when the NUL finally does.
  frameBytes: number;
  // A line or NUL-terminated body that spans pushes; caller buffers are never retained.
  readonly pending: GrowableBytes;
  command: StompCommand;
  escapeThisFrame: boolean;
  headers: Map<string, string>;
  headerLines: number;
  sizedBody: Uint8Array;
  sizedBodyFilled: number;
}

/** What one push has finished so far. */
interface PushResult {
  frames: StompFrame[];
  heartbeats: number;
}

export function createStompParser(options: StompParserOptions): StompParser {
  const state = newParserState(options);
  return {
    push: (chunk) => push(state, chunk),
    setEscapeHeaders(enabled: boolean): void {
      state.escapeHeaders = enabled;
    },
    idle: () => state.phase === 'betweenFrames' && !state.failure && state.pending.isEmpty(),
  };
}

function newParserState(options: StompParserOptions): ParserState {
  const { maxFrameBytes, maxHeaders = MAX_STOMP_HEADERS, maxHeaderLineBytes = MAX_STOMP_HEADER_LINE_BYTES } = options;
  if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1) {
    throw new RangeError(`maxFrameBytes must be a positive integer, got ${maxFrameBytes}`);
  }
  return {
    maxFrameBytes,
    maxHeaders,
    maxHeaderLineBytes,
    escapeHeaders: options.escapeHeaders ?? true,
    phase: 'betweenFrames',
    failure: undefined,
    frameBytes: 0,
    pending: new GrowableBytes(maxFrameBytes),
    command: 'SEND',
    escapeThisFrame: false,
    headers: new Map(),
    headerLines: 0,
    sizedBody: new Uint8Array(0),
    sizedBodyFilled: 0,
  };
}

function push(state: ParserState, chunk: string | Uint8Array): PushResult {
  if (state.failure) throw state.failure.error;
  const bytes = typeof chunk === 'string' ? utf8Encoder.encode(chunk) : chunk;
  const result: PushResult = { frames: [], heartbeats: 0 };
  try {
    let position = 0;
    while (position < bytes.byteLength) position = step(state, bytes, position, result);
  } catch (error) {
    state.failure = { error };
    throw error;
  }
  return result;
}

/** Consumes bytes of the current phase from `position` and returns where it stopped. */
function step(state: ParserState, bytes: Uint8Array, position: number, result: PushResult): number {
  switch (state.phase) {
    case 'betweenFrames':
      return readBetweenFrames(state, bytes, position, result);
    case 'betweenFramesAfterCr':
      return readHeartbeatLf(state, bytes, position, result);
    case 'commandLine':
    case 'headerLines':
      return readHeadLine(state, bytes, position);
    case 'sizedBody':
      return readSizedBody(state, bytes, position);
    case 'sizedBodyTerminator':
      return readSizedBodyTerminator(state, bytes, position, result);
    case 'nulTerminatedBody':
      return readNulTerminatedBody(state, bytes, position, result);
  }
}

/** Heart-beats (LF, or CR then LF) until the first byte of a frame. */
function readBetweenFrames(state: ParserState, bytes: Uint8Array, position: number, result: PushResult): number {
  const byte = bytes[position];
  if (byte === LF) {
    result.heartbeats += 1;
    return position + 1;
  }
  if (byte === CR) {
    state.phase = 'betweenFramesAfterCr';
    return position + 1;
  }
  if (byte === NUL) throw new StompFrameError('NUL byte outside a frame');
  startFrame(state);
  return position;
}

function readHeartbeatLf(state: ParserState, bytes: Uint8Array, position: number, result: PushResult): number {
  if (bytes[position] !== LF) throw new StompFrameError('CR not followed by LF between frames');
  result.heartbeats += 1;
  state.phase = 'betweenFrames';
  return position + 1;
}

function startFrame(state: ParserState): void {
  state.phase = 'commandLine';
  state.frameBytes = 1;
  state.headers = new Map();
  state.headerLines = 0;
}

/** The command line or a header line, held in `pending` until its LF arrives. */
function readHeadLine(state: ParserState, bytes: Uint8Array, position: number): number {
  const { pending } = state;
  const lineFeed = bytes.indexOf(LF, position);
  if (lineFeed === -1) {
    checkLineLength(state, pending.size + bytes.byteLength - position);
    countFrameBytes(state, bytes.byteLength - position);
    pending.append(bytes.subarray(position));
    return bytes.byteLength;
  }
  checkLineLength(state, pending.size + lineFeed - position);
  countFrameBytes(state, lineFeed + 1 - position);
  const ownBytes = bytes.subarray(position, lineFeed);
  // Decoded at once, so a view of the caller's chunk or of `pending` is safe here.
  readLine(state, pending.isEmpty() ? ownBytes : pending.append(ownBytes).takeView());
  return lineFeed + 1;
}

function countFrameBytes(state: ParserState, count: number): void {
  state.frameBytes += count;
  if (state.frameBytes > state.maxFrameBytes) throw new StompFrameError(`frame exceeds ${state.maxFrameBytes} bytes`);
}

function checkLineLength(state: ParserState, bytes: number): void {
  // A CR before the LF is part of the EOL, so one byte of slack.
  if (bytes > state.maxHeaderLineBytes + 1)
    throw new StompFrameError(`a ${state.phase === 'commandLine' ? 'command' : 'header'} line exceeds ${state.maxHeaderLineBytes} bytes`);
}

function readLine(state: ParserState, line: Uint8Array): void {
  // EOL is LF or CRLF.
  const content = line.byteLength > 0 && line[line.byteLength - 1] === CR ? line.subarray(0, -1) : line;
  if (state.phase === 'commandLine') readCommandLine(state, content);
  else if (content.byteLength === 0) startBody(state);
  else readHeaderLine(state, content);
}

function readCommandLine(state: ParserState, line: Uint8Array): void {
  const text = decodeUtf8(line, 'command');
  if (!isStompCommand(text)) throw new StompFrameError(`unknown command ${JSON.stringify(text.slice(0, 40))}`);
  state.command = text;
  state.escapeThisFrame = state.escapeHeaders && commandEscapesHeaders(text);
  state.phase = 'headerLines';
}

function readHeaderLine(state: ParserState, line: Uint8Array): void {
  const { command, maxHeaders } = state;
  if (++state.headerLines > maxHeaders) throw new StompFrameError(`${command} frame has more than ${maxHeaders} headers`);
  const colon = line.indexOf(COLON);
  if (colon === -1) throw new StompFrameError(`header line without a colon in ${command} frame`);
  if (colon === 0) throw new StompFrameError(`header with an empty name in ${command} frame`);
  let name = decodeUtf8(line.subarray(0, colon), 'header name');
  let value = decodeUtf8(line.subarray(colon + 1), 'header value');
  if (state.escapeThisFrame) {
    name = unescapeHeaderText(name);
    value = unescapeHeaderText(value);
  }
  // Repeated headers: the spec says only the first occurrence counts.
  if (!state.headers.has(name)) state.headers.set(name, value);
}

/** After the blank line: a body of content-length bytes, or else one that runs to the NUL. */
function startBody(state: ParserState): void {
  const declaredLength = state.headers.get('content-length');
  if (declaredLength === undefined) {
    state.phase = 'nulTerminatedBody';
    return;
  }
  if (!/^[0-9]+$/.test(declaredLength)) {
    throw new StompFrameError(`invalid content-length ${JSON.stringify(declaredLength.slice(0, 40))}`);
  }
  const length = Number(declaredLength);
  // Reject before allocating or waiting for the body.
  if (state.frameBytes + length > state.maxFrameBytes) {
    throw new StompFrameError(`content-length ${declaredLength.slice(0, 40)} makes the frame exceed ${state.maxFrameBytes} bytes`);
  }
  state.frameBytes += length;
  state.sizedBody = new Uint8Array(length);
  state.sizedBodyFilled = 0;
  state.phase = length === 0 ? 'sizedBodyTerminator' : 'sizedBody';
}

function readSizedBody(state: ParserState, bytes: Uint8Array, position: number): number {
  const { sizedBody } = state;
  const take = Math.min(sizedBody.byteLength - state.sizedBodyFilled, bytes.byteLength - position);
  sizedBody.set(bytes.subarray(position, position + take), state.sizedBodyFilled);
  state.sizedBodyFilled += take;
  if (state.sizedBodyFilled === sizedBody.byteLength) state.phase = 'sizedBodyTerminator';
  return position + take;
}

function readSizedBodyTerminator(state: ParserState, bytes: Uint8Array, position: number, result: PushResult): number {
  if (bytes[position] !== NUL) {
    throw new StompFrameError(`${state.command} frame has more bytes than its content-length and no NUL after them`);
  }
  result.frames.push(finishFrame(state, state.sizedBody));
  return position + 1;
}

function readNulTerminatedBody(state: ParserState, bytes: Uint8Array, position: number, result: PushResult): number {
  const { pending } = state;
  const nul = bytes.indexOf(NUL, position);
  if (nul === -1) {
    countFrameBytes(state, bytes.byteLength - position);
    pending.append(bytes.subarray(position));
    return bytes.byteLength;
  }
  countFrameBytes(state, nul - position);
  const ownBytes = bytes.subarray(position, nul);
  result.frames.push(finishFrame(state, pending.isEmpty() ? ownBytes.slice() : pending.append(ownBytes).takeCopy()));
  return nul + 1;
}

function finishFrame(state: ParserState, body: Uint8Array): StompFrame {
  state.phase = 'betweenFrames';
  const frame: StompFrame = { command: state.command, headers: Object.fromEntries(state.headers), body };
  state.headers = new Map();
  state.sizedBody = new Uint8Array(0);
  return frame;
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
