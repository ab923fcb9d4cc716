// Picks the planner and the chat agent from the configuration (PLANNER=offline|openai).
import type { ChatAgent } from '../chats/chatAgent.js';
import { createOfflineChatAgent } from '../chats/offlineChatAgent.js';
import { createOpenAiChatAgent } from '../chats/openaiChatAgent.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { createOfflinePlanner } from './offlinePlanner.js';
import { createOpenAiClient } from './openai/openaiClient.js';
import { createOpenAiPlanner } from './openai/openaiPlanner.js';
import type { Planner } from './planner.js';

export function createPlanner(config: Config, db: Db, log: Logger): Planner {
  if (config.planner === 'openai') {
    return createOpenAiPlanner({ db, client: createOpenAiClient(config.openai), model: config.openai.model, maxAttempts: config.openai.maxAttempts, log });
  }
  return createOfflinePlanner({ db, delayMs: config.plannerDelayMs });
}

export function createChatAgent(config: Config, db: Db, log: Logger): ChatAgent {
  if (config.planner === 'openai') return createOpenAiChatAgent({ db, client: createOpenAiClient(config.openai), model: config.openai.model, log });
  return createOfflineChatAgent();
}
