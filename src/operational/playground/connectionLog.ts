// What the connection under the client does, as the person can watch it: the WebSocket class the
// client is given is the browser's, watched: each STOMP frame that opens, resumes or ends
// something is logged (CONNECTED, a SUBSCRIBE that resumes with the since header, the RECEIPT that
// says whether the history was recovered, ERROR), and "drop the connection" closes the socket
// under the client the way a lost network would, without a DISCONNECT.
import type { WebSocketConstructor } from '@trip-itinerary/client';

/** What a STOMP escape (`\` and a letter) stands for. */
const escaped: Record<string, string> = { c: ':', n: '\n', r: '\r', '\\': '\\' };

/** A header's name or value as STOMP 1.2 escapes it (`\c` is `:`, an epoch:offset position among them). */
const unescape = (text: string) => text.replace(/\\([cnr\\])/g, (_, code: string) => escaped[code] ?? code);

interface Frame {
  command: string | undefined;
  headers: Record<string, string>;
}

/** The replay headers of asyncapi.yaml's x-delivery, by what they say. */
export interface ReplayHeaders {
  since: string;
  recovered: string;
}

export interface ConnectionLog {
  /** the class to give the client: the browser's WebSocket, watched */
  webSocket: WebSocketConstructor;
  log(text: string, className?: string): void;
  /** closes the socket under the client as a lost network would; the client reconnects and resumes */
  drop(): boolean;
}

/** The frames of one WebSocket message (a STOMP frame ends with NUL; a lone newline is a heart-beat). */
function framesOf(data: unknown): Frame[] {
  if (typeof data !== 'string') return [];
  return data
    .split('\0')
    .map((frame) => frame.replace(/^\n+/, ''))
    .filter((frame) => frame.length > 0)
    .map((frame) => {
      const [head = ''] = frame.split('\n\n');
      const [command, ...lines] = head.split('\n');
      const headers: Record<string, string> = Object.fromEntries(
        lines.map((header) => [unescape(header.slice(0, header.indexOf(':'))), unescape(header.slice(header.indexOf(':') + 1))]),
      );
      return { command, headers };
    });
}

/**
 * The log on the page, and `webSocket`: the class to give the client. `headers` names the replay
 * headers of asyncapi.yaml's x-delivery (`since`, `recovered`).
 */
export function createConnectionLog(list: HTMLElement, state: HTMLElement, headers: ReplayHeaders): ConnectionLog {
  /** the socket under the client now: each reconnect opens a new one */
  const sockets: { current: WebSocket | null } = { current: null };
  const log = (text: string, className = '') => {
    const item = document.createElement('li');
    item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
    if (className) item.className = className;
    list.append(item);
  };
  /** SUBSCRIBE id → destination, to name the subscription its RECEIPT answers */
  const resuming = new Map<string | undefined, string | undefined>();

  function watch(direction: 'in' | 'out', data: unknown) {
    for (const { command, headers: frame } of framesOf(data)) {
      if (command === 'CONNECTED') {
        state.textContent = 'connected';
        log(`CONNECTED (${frame.server ?? 'server'})`);
      } else if (direction === 'out' && command === 'SUBSCRIBE' && frame[headers.since]) {
        resuming.set(frame.receipt, frame.destination);
        log(`SUBSCRIBE ${frame.destination} with ${headers.since}: ${frame[headers.since]} (resume after the last message seen)`, 'resume');
      } else if (command === 'RECEIPT' && resuming.has(frame['receipt-id'])) {
        const destination = resuming.get(frame['receipt-id']);
        resuming.delete(frame['receipt-id']);
        const recovered = frame[headers.recovered] === 'true';
        log(
          recovered
            ? `RECEIPT ${headers.recovered}: true: ${destination} recovered, every message since was delivered once`
            : `RECEIPT ${headers.recovered}: false: continuity lost on ${destination}; the saved state is read again`,
          recovered ? 'recovered' : 'lost',
        );
      } else if (command === 'ERROR') log(`ERROR ${frame['error-code'] ?? ''} ${frame.message ?? ''}`, 'lost');
    }
  }

  class WatchedWebSocket extends WebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols);
      sockets.current = this;
      this.addEventListener('message', (event) => watch('in', event.data));
      this.addEventListener('close', () => {
        if (sockets.current === this) state.textContent = 'disconnected, reconnecting…';
      });
    }

    override send(data: Parameters<WebSocket['send']>[0]) {
      watch('out', data);
      super.send(data);
    }
  }

  return {
    webSocket: WatchedWebSocket,
    log,
    drop() {
      if (!sockets.current) return false;
      log('The connection is dropped (the socket closed without DISCONNECT).', 'dropped');
      sockets.current.close();
      return true;
    },
  };
}
