// The trip's chat once its run has ended: the page follows the room's chat and the plan's schedule
// (an answer streams on the chat; an edit the planner makes sends the changed day, then UPDATED),
// and sends what the person writes on the chat channel; the client resolves the send once the
// server's RECEIPT says the message is stored.
/* global document, FormData */

export function createChat({ connection, days, chat, report }) {
  const form = document.getElementById('chat-form');
  const send = form.querySelector('button[type="submit"]');
  let room = null;
  let following = [];

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!room) return;
    const content = String(new FormData(form).get('content'));
    send.disabled = true;
    try {
      await (await connection()).send('chatMessages', { chatRoomId: room.chatRoomId }, { content, messageContentType: 'TEXT' });
      chat.sent(content);
      form.reset();
    } catch (error) {
      report(`The message was not sent: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      send.disabled = false;
    }
  });

  return {
    /** follows the room of a trip whose run ended (and stops following the one before) */
    async follow(trip) {
      await this.leave();
      room = trip;
      const live = await connection();
      following = await Promise.all([
        live.subscribe('chatStream', { chatRoomId: trip.chatRoomId }, { onMessage: (message) => chat.received(message) }),
        live.subscribe('scheduleUpdates', { tripPlanId: trip.tripPlanId }, { onMessage: (message) => message.dailyPlan && days.show(message.dailyPlan) }),
      ]);
      document.getElementById('chat').hidden = false;
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
