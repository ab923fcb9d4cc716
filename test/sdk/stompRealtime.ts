// The realtime half of the scenario. Generated HTTP clients know nothing about STOMP, so the
// client programs receive this object and call it between create and start, as the call order in
// openapi.yaml demands: subscribe, wait for every RECEIPT, only then start.
import { jsonAt } from '../../conformance/specModel/index.js';
import { connectRecordingStomp, wsUrl, type ReceivedMessage, type RecordingStompClient } from '../../conformance/index.js';

export interface PlanChannels {
  accessToken: string;
  tripPlanId: number;
  chatRoomId: number;
}

export interface StompRealtime {
  /** resolves once the three subscriptions are live; `completed` settles at the chat COMPLETED */
  subscribe(plan: PlanChannels): Promise<{ completed: Promise<void> }>;
  messages(): ReceivedMessage[];
  waitFor(predicate: (m: ReceivedMessage) => boolean): Promise<ReceivedMessage>;
  send(destination: string, body: unknown): Promise<void>;
  close(): Promise<void>;
}

export const isChat = (type: string) => (m: ReceivedMessage) => m.destination.startsWith('/user/sub/chat/') && jsonAt(m.body, 'messageStreamType') === type;

export function stompRealtime(httpUrl: string): StompRealtime {
  let client: RecordingStompClient | null = null;
  const connected = () => {
    if (!client) throw new Error('subscribe() first');
    return client;
  };
  return {
    async subscribe({ accessToken, tripPlanId, chatRoomId }) {
      client = await connectRecordingStomp(wsUrl(httpUrl), accessToken);
      if (client.errors.length > 0) throw new Error(`STOMP refused: ${client.errors[0]!.headers['error-code']}`);
      for (const destination of [`/user/sub/schedule/${tripPlanId}`, `/user/sub/chat/${chatRoomId}`, `/user/sub/errors/${chatRoomId}`]) {
        await client.subscribe(destination);
      }
      const completed = client.waitFor(isChat('COMPLETED'), 20_000).then(() => undefined);
      // Observed by the program only after start returns; keep an early rejection from being unhandled.
      completed.catch(() => undefined);
      return { completed };
    },
    messages: () => connected().messages,
    waitFor: (predicate) => connected().waitFor(predicate),
    send: (destination, body) => connected().send(destination, JSON.stringify(body)),
    close: async () => {
      await client?.disconnect();
    },
  };
}
