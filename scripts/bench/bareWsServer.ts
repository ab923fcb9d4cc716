// The memory peer of `npm run bench`: a bare `ws` server on a node HTTP server that answers just
// enough STOMP for the idle-connection client (CONNECTED to CONNECT, RECEIPT to SUBSCRIBE), so both
// servers hold the same connections. GET /readyz answers 200. PORT from the environment.
import http from 'node:http';
import { WebSocketServer } from 'ws';

const server = http.createServer((req, res) => {
  res.writeHead(req.url === '/readyz' ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
});
const wss = new WebSocketServer({ server, path: '/ws-stomp' });
wss.on('connection', (socket) => {
  socket.on('message', (data: Buffer) => {
    const frame = data.toString();
    if (frame.startsWith('CONNECT')) socket.send('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0');
    else if (frame.startsWith('SUBSCRIBE')) {
      const receipt = /^receipt:(.*)$/m.exec(frame)?.[1];
      if (receipt) socket.send(`RECEIPT\nreceipt-id:${receipt}\n\n\0`);
    }
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  for (const socket of wss.clients) socket.terminate();
  server.close(() => process.exit(0));
});
