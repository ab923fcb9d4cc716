// The clients of the connections benchmark: N raw `ws` WebSockets in this process, each sending
// CONNECT (bearer token, heart-beat offer), then one SUBSCRIBE with a receipt, and waiting for the
// RECEIPT. Then they stay idle: one shared timer sends the heart-beats each connection agreed to, so
// the server does not close them as silent. No STOMP library: 10,000 of them must stay cheap here.
import { WebSocket } from 'ws';

export interface IdleTarget {
  token: string;
  destination: string;
}

export interface IdleClients {
  opened: number;
  /** a few examples of what went wrong */
  failures: string[];
  failed: number;
  close(): Promise<void>;
}

const frame = (command: string, headers: Record<string, string>) =>
  `${command}\n${Object.entries(headers)
    .map(([k, v]) => `${k}:${v}`)
    .join('\n')}\n\n\0`;

interface OpenSocket {
  ws: WebSocket;
  /** ms between the heart-beats this client owes the server; 0: none */
  sendEveryMs: number;
}

function openOne(url: string, target: IdleTarget, heartBeatMs: number, timeoutMs: number): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v12.stomp']);
    let sendEveryMs = 0;
    const timer = setTimeout(() => fail(new Error(`no RECEIPT within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(error);
    };
    ws.on('error', fail);
    ws.on('unexpected-response', (_req, res) => fail(new Error(`upgrade answered ${res.statusCode}`)));
    ws.on('open', () =>
      ws.send(
        frame('CONNECT', {
          'accept-version': '1.2',
          host: 'localhost',
          Authorization: `Bearer ${target.token}`,
          'heart-beat': `${heartBeatMs},${heartBeatMs}`,
        }),
      ),
    );
    ws.on('message', (data) => {
      const text = (data as Buffer).toString(); // binaryType nodebuffer: always one Buffer
      if (text.startsWith('CONNECTED')) {
        // STOMP 1.2: the client sends every max(what it offers, what the server wants) ms.
        const wants = Number(/\nheart-beat:\d+,(\d+)/.exec(text)?.[1] ?? 0);
        sendEveryMs = heartBeatMs > 0 && wants > 0 ? Math.max(heartBeatMs, wants) : 0;
        ws.send(frame('SUBSCRIBE', { id: 'sub-0', destination: target.destination, receipt: 'subscribed' }));
      } else if (text.startsWith('RECEIPT')) {
        clearTimeout(timer);
        ws.off('error', fail);
        ws.on('error', () => undefined);
        resolve({ ws, sendEveryMs });
      } else if (text.startsWith('ERROR')) {
        fail(new Error(`ERROR ${/\nerror-code:([^\n]*)/.exec(text)?.[1] ?? ''}: ${/\nmessage:([^\n]*)/.exec(text)?.[1] ?? ''}`));
      }
    });
  });
}

/** Opens `targets.length` connections, `batchSize` at a time. */
export async function openIdleClients(
  url: string,
  targets: IdleTarget[],
  options: { heartBeatMs: number; batchSize: number; timeoutMs?: number },
): Promise<IdleClients> {
  const open: OpenSocket[] = [];
  const failures: string[] = [];
  let failed = 0;
  for (let at = 0; at < targets.length; at += options.batchSize) {
    const batch = targets.slice(at, at + options.batchSize);
    const settled = await Promise.allSettled(batch.map((target) => openOne(url, target, options.heartBeatMs, options.timeoutMs ?? 60_000)));
    for (const result of settled) {
      if (result.status === 'fulfilled') open.push(result.value);
      else {
        failed++;
        if (failures.length < 5) failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
      }
    }
  }
  // The most frequent heart-beat any connection owes, halved so that timer jitter never makes one late.
  const everyMs = Math.min(...open.map((s) => s.sendEveryMs).filter((ms) => ms > 0));
  const heartBeats = Number.isFinite(everyMs)
    ? setInterval(() => {
        for (const { ws } of open) if (ws.readyState === WebSocket.OPEN) ws.send('\n');
      }, everyMs / 2)
    : null;
  return {
    opened: open.length,
    failures,
    failed,
    async close() {
      if (heartBeats) clearInterval(heartBeats);
      await Promise.all(
        open.map(
          ({ ws }) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              ws.once('close', () => resolve());
              ws.terminate();
            }),
        ),
      );
    },
  };
}
