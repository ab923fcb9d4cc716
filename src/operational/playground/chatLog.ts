// The chat of the trip on the page: the summaries and answers as they stream (chunks, then the
// full text once more), the events of the plan (completed, cancelled, updated), and what the person
// sent; after a loss, the room's messages as saved.
import type { ChannelPayloads, components } from '@trip-itinerary/client';

/** Who speaks on a line of the log. */
type Speaker = 'event' | 'planner' | 'you';

export interface ChatLog {
  /** a message of the chat channel (ChatStreamDto) */
  received(message: ChannelPayloads['chatStream']): void;
  sent(text: string): void;
  /** the room's messages as saved (a listChatMessages page: newest first), in place of what was shown */
  showSaved(messages: readonly components['schemas']['ChatMessageResponse'][]): void;
  clear(): void;
}

/** `from`: who speaks, shown before the text; the class of the line says so too. */
function line(list: HTMLElement, from: Speaker, text: string): HTMLSpanElement {
  const item = document.createElement('li');
  item.className = `chat-${from}`;
  const who = document.createElement('strong');
  who.textContent = `${from}: `;
  const body = document.createElement('span');
  body.textContent = text;
  item.append(who, body);
  list.append(item);
  item.scrollIntoView({ block: 'nearest' });
  return body;
}

export function createChatLog(list: HTMLElement): ChatLog {
  /** the text of the answer streaming now, until its full text arrives */
  let streaming: HTMLSpanElement | null = null;
  return {
    received(message) {
      if (message.messageStreamType !== 'CHAT') {
        streaming = null;
        line(list, 'event', `${message.messageStreamType}: ${message.message}`);
        return;
      }
      streaming ??= line(list, 'planner', '');
      if (message.isComplete) {
        streaming.textContent = message.message;
        streaming.parentElement?.classList.add('complete');
        streaming = null;
      } else streaming.textContent += message.message;
    },
    sent(text) {
      line(list, 'you', text);
    },
    showSaved(messages) {
      streaming = null;
      list.replaceChildren();
      for (const message of [...messages].reverse()) {
        line(list, message.messageType === 'USER' ? 'you' : 'planner', message.content).parentElement?.classList.add('complete');
      }
    },
    clear() {
      streaming = null;
      list.replaceChildren();
    },
  };
}
