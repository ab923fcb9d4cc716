// The OpenAI chat agent: one chat completion that sees the itinerary and the member's message and
// may call one of three tools, each of which is exactly one DayEdit. The model only decides; the
// chat service checks the edit against the plan and applies it.
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { DatabasePort } from '../db/databasePort.js';
import { regionDisplayName } from '../catalogue/placeCatalogue.js';
import type { Logger } from '../kernel/logger.js';
import { findActivePromptTemplate } from '../prompts/promptTemplateRepository.js';
import type { DayEdit } from '../itinerary/dayEdits.js';
import type { ChatAgent, ChatDecision, ChatTurn } from './chatAgent.js';

const DEFAULT_SYSTEM = [
  'You are the assistant of a trip itinerary app. The traveller can ask you to change the itinerary:',
  'swap two stops of a day (swap_stops), replace a stop with another place nearby (replace_stop) or remove a stop (remove_stop).',
  'Call at most one tool, only when the traveller clearly asks for that change, with the day number and visit orders shown in the itinerary.',
  'Otherwise answer briefly in markdown, and mention what you can change.',
].join(' ');

const HELP = 'I can swap two stops of a day, replace a stop with another place nearby, or remove a stop — for example "swap stop 1 and 3 on day 2".';

const integer = (description: string) => ({ type: 'integer', minimum: 1, description });

function tool(name: string, description: string, properties: Record<string, object>): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      strict: true,
      parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
    },
  };
}

const tools: ChatCompletionTool[] = [
  tool('swap_stops', 'Swap the positions of two stops of the same day.', {
    dayNumber: integer('Day of the itinerary, from 1.'),
    visitOrderA: integer('Visit order of the first stop, from 1.'),
    visitOrderB: integer('Visit order of the other stop, from 1.'),
  }),
  tool('replace_stop', 'Replace one stop with another place of the region, chosen by the app.', {
    dayNumber: integer('Day of the itinerary, from 1.'),
    visitOrder: integer('Visit order of the stop to replace, from 1.'),
  }),
  tool('remove_stop', 'Remove one stop from a day.', {
    dayNumber: integer('Day of the itinerary, from 1.'),
    visitOrder: integer('Visit order of the stop to remove, from 1.'),
  }),
];

function itinerary(turn: ChatTurn): string {
  if (turn.days.length === 0) return 'There is no itinerary yet.';
  return turn.days
    .map((day) =>
      [`Day ${day.dayNumber} (${day.date}) — ${day.title}`, ...day.stops.map((s) => `  ${s.visitOrder}. ${s.place.name} [${s.category}]`)].join('\n'),
    )
    .join('\n');
}

function selectedStop(turn: ChatTurn): string | null {
  if (turn.scheduledPlaceId === undefined) return null;
  for (const day of turn.days) {
    const stop = day.stops.find((s) => s.id === turn.scheduledPlaceId);
    if (stop) return `The message is about the selected stop: day ${day.dayNumber}, visit order ${stop.visitOrder} (${stop.place.name}).`;
  }
  return null;
}

async function userTurn(db: DatabasePort, turn: ChatTurn): Promise<string> {
  const template = (await findActivePromptTemplate(db, 'USER', 'CHAT_AGENT'))?.prompt;
  const selected = selectedStop(turn);
  return [
    ...(template ? [template, ''] : []),
    `Current itinerary of the trip to ${regionDisplayName(turn.region)}:`,
    itinerary(turn),
    '',
    ...(selected ? [selected] : []),
    `Traveller's message: ${turn.content}`,
  ].join('\n');
}

function positiveInteger(args: Record<string, unknown>, name: string): number | string {
  const value = args[name];
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : `${name} must be an integer of at least 1`;
}

/** The edit a tool call stands for, or what is wrong with it. */
function editOf(name: string, rawArguments: string): DayEdit | string {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments);
  } catch {
    return 'the tool arguments are not valid JSON';
  }
  if (typeof args !== 'object' || args === null) return 'the tool arguments are not an object';
  const record = args as Record<string, unknown>;
  const fields =
    name === 'swap_stops'
      ? ['dayNumber', 'visitOrderA', 'visitOrderB']
      : name === 'replace_stop' || name === 'remove_stop'
        ? ['dayNumber', 'visitOrder']
        : null;
  if (!fields) return `there is no tool called ${name}`;
  const values = fields.map((field) => positiveInteger(record, field));
  const problem = values.find((v) => typeof v === 'string');
  if (typeof problem === 'string') return problem;
  const [dayNumber, a, b] = values as number[];
  if (name === 'swap_stops') return a === b ? 'the two stops to swap are the same' : { kind: 'swap', dayNumber: dayNumber!, visitOrderA: a!, visitOrderB: b! };
  return { kind: name === 'replace_stop' ? 'replace' : 'remove', dayNumber: dayNumber!, visitOrder: a! };
}

export function createOpenAiChatAgent(deps: { db: DatabasePort; client: OpenAI; model: string; log: Logger }): ChatAgent {
  return {
    name: 'openai',
    async decide(turn, signal): Promise<ChatDecision> {
      const messages: ChatCompletionMessageParam[] = [
        { role: 'system', content: (await findActivePromptTemplate(deps.db, 'SYSTEM', 'CHAT_AGENT'))?.prompt ?? DEFAULT_SYSTEM },
        { role: 'user', content: await userTurn(deps.db, turn) },
      ];
      const completion = await deps.client.chat.completions.create(
        { model: deps.model, messages, tools, tool_choice: 'auto', parallel_tool_calls: false },
        { signal },
      );
      const message = completion.choices[0]?.message;
      const text = message?.content?.trim() ?? '';
      const call = message?.tool_calls?.find((c) => c.type === 'function');
      if (!call) return { edit: null, reply: text || HELP };
      const edit = editOf(call.function.name, call.function.arguments);
      if (typeof edit === 'string') {
        deps.log.warn({ tool: call.function.name, arguments: call.function.arguments, problem: edit }, 'openai chat tool call rejected');
        return { edit: null, reply: [text, `I could not make that change: ${edit}. ${HELP}`].filter(Boolean).join('\n\n') };
      }
      return { edit, reply: text };
    },
  };
}
