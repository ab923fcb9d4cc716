// The offline chat agent: understands "swap stop A and B on day N", "replace stop A on day N" and
// "remove stop A on day N" (also with the stop selected in the client, via scheduledPlaceId), and
// otherwise answers with what it can do and the current plan. Deterministic, no network.
import type { ChatAgent, ChatDecision, ChatTurn } from './chatAgent.js';

const DAY = String.raw`(?:on|of|in|from|for)\s+day\s*(\d+)`;
const STOP = String.raw`(?:stops?\s*|#|no\.?\s*)?(\d+)`;
const swapPattern = new RegExp(String.raw`\b(?:swap|switch|exchange)\s+${STOP}\s*(?:and|with|&|,)\s*${STOP}\s+${DAY}`, 'i');
const replacePattern = new RegExp(String.raw`\b(?:replace|change)\s+${STOP}\s+${DAY}`, 'i');
const removePattern = new RegExp(String.raw`\b(?:remove|delete|drop|skip)\s+${STOP}\s+${DAY}`, 'i');
const selectedReplace = /\b(?:replace|change)\s+(?:this|it|that)\b/i;
const selectedRemove = /\b(?:remove|delete|drop|skip)\s+(?:this|it|that)\b/i;

function overview(turn: ChatTurn): string {
  if (turn.days.length === 0) return 'There is no itinerary yet: start the generation first.';
  return turn.days.map((day) => `Day ${day.dayNumber}: ${day.stops.map((s) => `${s.visitOrder}. ${s.place.name}`).join(', ')}`).join('\n');
}

function help(turn: ChatTurn): ChatDecision {
  return {
    edit: null,
    reply: [
      'I can change the itinerary for you. Try for example:',
      '- "swap stop 1 and 3 on day 2"',
      '- "replace stop 2 on day 1" (I pick another place nearby)',
      '- "remove stop 4 on day 3"',
      '',
      'Your plan right now:',
      overview(turn),
    ].join('\n'),
  };
}

function selectedStop(turn: ChatTurn): { dayNumber: number; visitOrder: number } | null {
  if (turn.scheduledPlaceId === undefined) return null;
  for (const day of turn.days) {
    const stop = day.stops.find((s) => s.id === turn.scheduledPlaceId);
    if (stop) return { dayNumber: day.dayNumber, visitOrder: stop.visitOrder };
  }
  return null;
}

/** The offline agent's decision: an edit it recognises in the message, or help. */
function decideOffline(turn: ChatTurn): ChatDecision {
  const text = turn.content;
  let match = swapPattern.exec(text);
  if (match) return { edit: { kind: 'swap', visitOrderA: Number(match[1]), visitOrderB: Number(match[2]), dayNumber: Number(match[3]) }, reply: '' };
  match = replacePattern.exec(text);
  if (match) return { edit: { kind: 'replace', visitOrder: Number(match[1]), dayNumber: Number(match[2]) }, reply: '' };
  match = removePattern.exec(text);
  if (match) return { edit: { kind: 'remove', visitOrder: Number(match[1]), dayNumber: Number(match[2]) }, reply: '' };
  const selected = selectedStop(turn);
  if (selected && selectedReplace.test(text)) return { edit: { kind: 'replace', ...selected }, reply: '' };
  if (selected && selectedRemove.test(text)) return { edit: { kind: 'remove', ...selected }, reply: '' };
  return help(turn);
}

export function createOfflineChatAgent(): ChatAgent {
  return {
    name: 'offline',
    decide: (turn) => Promise.resolve(decideOffline(turn)),
  };
}
