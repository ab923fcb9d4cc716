// The peer of the connections benchmark: a bare `ws` server on node's HTTP server, holding WebSockets
// and nothing else. It answers CONNECT with CONNECTED (no heart-beats) and a SUBSCRIBE's receipt
// with RECEIPT, just enough for the benchmark's clients, so what it costs per connection is `ws`'s
// own floor. Run as its own process; PORT is given by benchConnections.ts, /readyz answers 200.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const CONNECTED = 'CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0';

const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/readyz' ? 200 : 404).end();
});
const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has('v12.stomp') ? 'v12.stomp' : false) });

server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data) => {
      const text = (data as Buffer).toString(); // binaryType nodebuffer: always one Buffer
      if (text.startsWith('CONNECT')) ws.send(CONNECTED);
      else if (text.startsWith('SUBSCRIBE')) {
        const receipt = /\nreceipt:([^\n]*)/.exec(text)?.[1];
        if (receipt !== undefined) ws.send(`RECEIPT\nreceipt-id:${receipt}\n\n\0`);
      }
    });
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  for (const ws of wss.clients) ws.terminate();
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
