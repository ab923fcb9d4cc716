// Handlers of the Chats operations.
import type { Handlers } from '../../generated/operations.js';
import { toCursorPage } from '../db/cursorPage.js';
import type { Db } from '../db/database.js';
import { AppError, invalidField } from '../http/appError.js';
import { principalOf } from '../http/principal.js';
import type { RequestContext } from '../http/requestContext.js';
import { findChatMessage, findOwnChatRoom, listChatMessages, type ChatMessageRow } from './chatRepository.js';

const toChatMessageResponse = (m: ChatMessageRow) => ({
  id: m.id,
  messageType: m.messageType,
  content: m.content,
  messageContentType: m.contentType,
  mediaUrl: null,
  createdAt: new Date(m.createdAt).toISOString(),
});

export function createChatHandlers({ db }: { db: Db }): Pick<Handlers<RequestContext>, 'listChatMessages'> {
  return {
    listChatMessages({ path, query }, ctx) {
      const room = findOwnChatRoom(db, principalOf(ctx).memberId, path.chatRoomId);
      if (!room) throw new AppError('CHAT301');
      if (query.cursor !== undefined && !findChatMessage(db, room.id, query.cursor)) {
        throw invalidField('query.cursor', query.cursor, 'is not the id of a message of this chat room');
      }
      const rows = listChatMessages(db, room.id, query.size, query.cursor ?? null);
      return { status: 200, body: toCursorPage(rows, query.size, toChatMessageResponse) };
    },
  };
}
