// A STOMP connection to /ws-stomp (the conformance package's stompjs client on `ws`), typed by the
// channels of asyncapi.yaml and reduced to what the documented flow needs: CONNECT with the Bearer
// token, SUBSCRIBE to a channel and wait for its RECEIPT, SEND with a RECEIPT, and the reason it
// closed. Payloads go to callbacks, not into a record: the benchmark keeps what it needs itself.
import { createStompClient } from '../../conformance/index.js';
import { channelAddress, type ChannelName, type ChannelParameters, type ChannelPayloads } from '../../generated/asyncapi.js';

export type ReceivableChannel = 'scheduleUpdates' | 'chatStream' | 'errors';

export interface StompConnection {
  /** Resolves once the server's RECEIPT arrived: only then is the subscription live. */
  subscribe<C extends ReceivableChannel>(
    channel: C,
    parameters: ChannelParameters<C>,
    onPayload: (payload: ChannelPayloads[C], headers: Readonly<Record<string, string>>) => void,
  ): Promise<void>;
  /** Resolves once the server's RECEIPT for the SEND arrived. */
  send<C extends ChannelName>(channel: C, parameters: ChannelParameters<C>, payload: ChannelPayloads[C]): Promise<void>;
  /** Settles when the connection ends, with why (an ERROR frame's code, or the WebSocket close). */
  readonly closed: Promise<string>;
  disconnect(): Promise<void>;
}

/** Resolves after CONNECTED; rejects with the server's reason if it refuses or the socket fails. */
export function connectStomp(url: string, token: string, opts: { heartbeatMs?: number } = {}): Promise<StompConnection> {
  const client = createStompClient(url, { token, heartbeatMs: opts.heartbeatMs ?? 10_000 });
  let receiptCounter = 0;
  let subscriptionCounter = 0;
  let closeReason = '';
  let resolveClosed!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (resolveClosed = resolve));

  const awaitReceipt = (issue: (receipt: string) => void, what: string) =>
    new Promise<void>((resolve, reject) => {
      const receipt = `receipt-${++receiptCounter}`;
      client.watchForReceipt(receipt, () => resolve());
      void closed.then((reason) => reject(new Error(`connection closed before the RECEIPT for ${what}: ${reason}`)));
      issue(receipt);
    });

  const connection: StompConnection = {
    subscribe(channel, parameters, onPayload) {
      // The server checks every message it publishes against asyncapi.yaml, so a payload is its channel's.
      const destination = channelAddress(channel, parameters);
      const id = `sub-${++subscriptionCounter}`;
      return awaitReceipt(
        (receipt) =>
          client.subscribe(destination, (message) => onPayload(JSON.parse(message.body) as ChannelPayloads[typeof channel], message.headers), { id, receipt }),
        `SUBSCRIBE ${destination}`,
      );
    },
    send(channel, parameters, payload) {
      const destination = channelAddress(channel, parameters);
      return awaitReceipt(
        (receipt) => client.publish({ destination, body: JSON.stringify(payload), headers: { receipt, 'content-type': 'application/json' } }),
        `SEND ${destination}`,
      );
    },
    closed,
    disconnect: () => client.deactivate(),
  };

  return new Promise((resolve, reject) => {
    client.onConnect = () => resolve(connection);
    client.onStompError = (frame) => {
      closeReason = `ERROR ${frame.headers['error-code'] ?? ''} ${frame.headers.message ?? frame.body}`.trim();
    };
    client.onWebSocketError = () => {
      closeReason ||= `WebSocket to ${url} failed`;
    };
    client.onWebSocketClose = (event: { code?: number }) => {
      const reason = closeReason || `WebSocket closed (code ${event.code ?? '?'})`;
      resolveClosed(reason);
      // Rejecting after CONNECTED resolved is a no-op, so this only reports a refused CONNECT.
      reject(new Error(reason));
    };
    client.activate();
  });
}
