// A local OpenAI-compatible server for tests: POST /v1/chat/completions answers from a queue of
// scripted replies (streamed as SSE when the request says `stream: true`), and every request body is
// kept so tests can check the prompts and the response_format the real SDK sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedReply {
  /** the assistant's text (streamed in `chunks` deltas when the request streams) */
  content?: string;
  /** a function tool call (non-streaming answers only) */
  toolCall?: { name: string; arguments: string | Record<string, unknown> };
  /** answer with this HTTP error status instead */
  status?: number;
  /** how many deltas a streamed content is split into; default 4 */
  chunks?: number;
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
  /** streaming only: after this many deltas, stop sending ('hang' keeps the connection open, 'drop' destroys it) */
  breakAfter?: { deltas: number; then: 'hang' | 'drop' };
}

export interface FakeOpenAiServer {
  /** for the SDK's baseURL, e.g. http://127.0.0.1:1234/v1 */
  readonly baseUrl: string;
  /** request bodies in arrival order */
  readonly requests: any[];
  reply(...replies: ScriptedReply[]): void;
  /** scripted replies not used yet */
  pending(): number;
  close(): Promise<void>;
}

function split(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, parts)));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function completion(model: string, reply: ScriptedReply): unknown {
  const toolCalls = reply.toolCall
    ? [
        {
          id: 'call_1',
          type: 'function',
          function: {
            name: reply.toolCall.name,
            arguments: typeof reply.toolCall.arguments === 'string' ? reply.toolCall.arguments : JSON.stringify(reply.toolCall.arguments),
          },
        },
      ]
    : undefined;
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? null, refusal: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: reply.finishReason ?? (toolCalls ? 'tool_calls' : 'stop'),
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function stream(res: http.ServerResponse, model: string, reply: ScriptedReply): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    })}\n\n`;
  const deltas = split(reply.content ?? '', reply.chunks ?? 4);
  res.write(chunk({ role: 'assistant', content: '' }, null));
  for (const [i, text] of deltas.entries()) {
    if (reply.breakAfter && i === reply.breakAfter.deltas) {
      // Dropped only once what was written has reached the client, so it sees a stream cut midway.
      if (reply.breakAfter.then === 'drop') setTimeout(() => res.destroy(), 50);
      return;
    }
    res.write(chunk({ content: text }, null));
  }
  res.write(chunk({}, reply.finishReason ?? 'stop'));
  res.end('data: [DONE]\n\n');
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: ScriptedReply[] = [];
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error', code: null } });
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      requests.push(body);
      const reply = queue.shift();
      if (!reply) {
        sendJson(res, 500, { error: { message: 'the fake server has no scripted reply left', type: 'server_error', code: null } });
        return;
      }
      if (reply.status !== undefined) {
        sendJson(res, reply.status, { error: { message: `scripted failure ${reply.status}`, type: 'server_error', code: null } });
        return;
      }
      if (body.stream === true) stream(res, body.model, reply);
      else sendJson(res, 200, completion(body.model, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hanging streams would keep close() waiting forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
