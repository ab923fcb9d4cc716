// Handlers of the Chats operations.
import type { Handlers } from '../../generated/operations.js';
import { toCursorPage } from '../db/cursorPage.js';
import type { DatabasePort } from '../db/databasePort.js';
import { AppError, invalidField } from '../kernel/appError.js';
import { principalOf } from '../kernel/principal.js';
import type { RequestContext } from '../kernel/requestContext.js';
import { ownChatPageRows, type ChatMessageItem } from './chatMessagePage.js';
import { findChatMessage, findOwnChatRoom } from './chatRepository.js';

const toChatMessageResponse = (m: ChatMessageItem) => ({
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
      const { memberId } = principalOf(ctx);
      const rows = await ownChatPageRows(db, memberId, path.chatRoomId, query.size, query.cursor ?? null);
      // No rows: an empty page, or the room or the cursor is refused (the page's statement folds both checks in).
      if (rows.length === 0) {
        if (!(await findOwnChatRoom(db, memberId, path.chatRoomId))) throw new AppError('CHAT301');
        if (query.cursor !== undefined && !(await findChatMessage(db, path.chatRoomId, query.cursor))) {
          throw invalidField('query.cursor', query.cursor, 'is not the id of a message of this chat room');
        }
      }
      return { status: 200, body: toCursorPage(rows, query.size, toChatMessageResponse) };
    },
  };
}
