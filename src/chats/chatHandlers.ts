// Handlers of the Chats operations.
import type { Handlers } from '../../generated/operations.js';
import { toCursorPage } from '../db/cursorPage.js';
import type { DatabasePort } from '../db/databasePort.js';
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

export function createChatHandlers({ db }: { db: DatabasePort }): Pick<Handlers<RequestContext>, 'listChatMessages'> {
  return {
    async listChatMessages({ path, query }, ctx) {
      const room = await findOwnChatRoom(db, principalOf(ctx).memberId, path.chatRoomId);
      if (!room) throw new AppError('CHAT301');
      if (query.cursor !== undefined && !(await findChatMessage(db, room.id, query.cursor))) {
        throw invalidField('query.cursor', query.cursor, 'is not the id of a message of this chat room');
      }
      const rows = await listChatMessages(db, room.id, query.size, query.cursor ?? null);
      return { status: 200, body: toCursorPage(rows, query.size, toChatMessageResponse) };
    },
  };
}
