// Picks the planner and the chat agent from the configuration (PLANNER=offline|openai).
import type { ChatAgent } from '../chats/chatAgent.js';
import { createOfflineChatAgent } from '../chats/offlineChatAgent.js';
import { createOpenAiChatAgent } from '../chats/openaiChatAgent.js';
import type { Config } from '../config.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { Logger } from '../logger.js';
import { createOfflinePlanner } from './offline/offlinePlanner.js';
import { createOpenAiClient } from './openai/openaiClient.js';
import { createOpenAiPlanner } from './openai/openaiPlanner.js';
import type { Planner } from './planner.js';
import { catalogueRegionsOnly, type PlannerRegions } from '../catalogue/plannerRegions.js';

export function createPlanner(config: Config, db: DatabasePort, log: Logger): Planner {
  if (config.planner === 'openai') {
    return createOpenAiPlanner({ db, client: createOpenAiClient(config.openai), model: config.openai.model, maxAttempts: config.openai.maxAttempts, log });
  }
  return createOfflinePlanner({ db, delayMs: config.plannerDelayMs });
}

/**
 * The regions the configured planner can plan. Both plan from the bundled catalogue only: the
 * offline planner by design, and the OpenAI planner because it resolves the region in the catalogue
 * and has the model choose among that region's place ids (any other id is rejected), so neither
 * accepts a region outside it. A planner that can plan anywhere would answer acceptsAnyRegion: true.
 */
export function createPlannerRegions(_config: Config): PlannerRegions {
  return catalogueRegionsOnly();
}

export function createChatAgent(config: Config, db: DatabasePort, log: Logger): ChatAgent {
  if (config.planner === 'openai') return createOpenAiChatAgent({ db, client: createOpenAiClient(config.openai), model: config.openai.model, log });
  return createOfflineChatAgent();
}
