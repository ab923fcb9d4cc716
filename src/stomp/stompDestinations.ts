// Which resource a destination names (asyncapi.yaml channels): subscriptions to a member's chat,
// schedule and errors channels, and the chat room a SEND is for. Ids are canonical decimal integers
// only (the parameters' `x-pattern`), so `03` or `+3` name nothing.
import { channels, matchChannel } from '../../generated/asyncapi.js';

export type SubscribableChannel = 'chatStream' | 'scheduleUpdates' | 'errors';

/** `/pub/chat/` from the asyncapi.yaml address `/pub/chat/{chatRoomId}/message` */
const chatRoomPrefix = channels.chatMessages.address.slice(0, channels.chatMessages.address.indexOf('{'));
const chatRoomIdPattern = new RegExp(channels.chatMessages.parameterPatterns.chatRoomId);

/** An id of a destination: canonical decimal text (the parameter's pattern) within the range of `Id`. */
function idOf(text: string | undefined, pattern: RegExp): number | null {
  if (text === undefined || !pattern.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/** The channel and resource id a SUBSCRIBE destination names, or null when it names none a client may subscribe to. */
export function subscriptionTarget(destination: string): { channel: SubscribableChannel; id: number } | null {
  const match = matchChannel(destination);
  const channel = match?.name;
  if (!match || (channel !== 'chatStream' && channel !== 'scheduleUpdates' && channel !== 'errors')) return null;
  const id = Number(Object.values(match.parameters)[0]);
  return Number.isSafeInteger(id) && id >= 1 ? { channel, id } : null;
}

/**
 * The room a SEND destination names, and whether it is the room's message destination. Another
 * destination under a room's prefix still names the room, so its WS005 goes to that room's errors
 * channel; null when no room is named.
 */
export function sendTarget(destination: string): { chatRoomId: number; acceptsMessages: boolean } | null {
  const match = matchChannel(destination);
  const isMessages = match?.name === 'chatMessages';
  const roomText = isMessages
    ? match.parameters.chatRoomId
    : destination.startsWith(chatRoomPrefix)
      ? destination.slice(chatRoomPrefix.length).split('/')[0]
      : undefined;
  const chatRoomId = idOf(roomText, chatRoomIdPattern);
  return chatRoomId === null ? null : { chatRoomId, acceptsMessages: isMessages };
}
