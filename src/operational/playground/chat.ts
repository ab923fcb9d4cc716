// The trip's chat once its run has ended: the page follows the room's chat and the plan's schedule
// (an answer streams on the chat; an edit the planner makes sends the changed day, then UPDATED),
// and sends what the person writes on the chat channel; the client resolves the send once the
// server's RECEIPT says the message is stored.
import type { ChannelPayloads, GenerationIds, RealtimeConnection, RealtimeSubscription, ReceivableChannel } from '@trip-itinerary/client';
import type { ChatLog } from './chatLog.js';
import type { DayList } from './days.js';
import { element, fieldText, submitButtonOf } from './page.js';

export interface ChatParts {
  /** the page's real-time connection (opened on first use) */
  connection: () => Promise<RealtimeConnection>;
  days: DayList;
  chat: ChatLog;
  report: (text: string) => void;
}

export interface Chat {
  /** follows the room of a trip whose run ended (and stops following the one before) */
  follow(trip: GenerationIds): Promise<void>;
  leave(): Promise<void>;
}

export function createChat({ connection, days, chat, report }: ChatParts): Chat {
  const form = element<HTMLFormElement>('chat-form');
  const send = submitButtonOf(form);
  let room: GenerationIds | null = null;
  let following: Pick<RealtimeSubscription<ReceivableChannel>, 'unsubscribe'>[] = [];

  async function sendMessage(chatRoomId: GenerationIds['chatRoomId'], content: string) {
    send.disabled = true;
    try {
      const message: ChannelPayloads['chatMessages'] = { content, messageContentType: 'TEXT' };
      await (await connection()).send('chatMessages', { chatRoomId }, message);
      chat.sent(content);
      form.reset();
    } catch (error) {
      report(`The message was not sent: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      send.disabled = false;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (room) void sendMessage(room.chatRoomId, fieldText(form, 'content'));
  });

  return {
    async follow(trip) {
      await this.leave();
      room = trip;
      const live = await connection();
      following = await Promise.all([
        live.subscribe('chatStream', { chatRoomId: trip.chatRoomId }, { onMessage: (message) => chat.received(message) }),
        live.subscribe('scheduleUpdates', { tripPlanId: trip.tripPlanId }, { onMessage: (message) => 'dailyPlan' in message && days.show(message.dailyPlan) }),
      ]);
      element('chat').hidden = false;
      send.disabled = false;
    },
    async leave() {
      room = null;
      send.disabled = true;
      const leaving = following;
      following = [];
      await Promise.allSettled(leaving.map((subscription) => subscription.unsubscribe()));
    },
  };
}
