// Picks the planner and the chat agent from the configuration (PLANNER=offline|openai). The OpenAI
// parts are loaded only when configured: the SDK and the answer schema derived from openapi.yaml
// (a parse of the whole spec) were a sixth of the start-up of a service that plans offline.
import type { ChatAgent } from '../chats/chatAgent.js';
import { createOfflineChatAgent } from '../chats/offlineChatAgent.js';
import type { Config } from '../config/config.js';
import type { DatabasePort } from '../db/databasePort.js';
import type { Logger } from '../kernel/logger.js';
import { createOfflinePlanner } from './offline/offlinePlanner.js';
import type { Planner } from './planner.js';
import { catalogueRegionsOnly, type PlannerRegions } from '../catalogue/plannerRegions.js';

export async function createPlanner(config: Config, db: DatabasePort, log: Logger): Promise<Planner> {
  if (config.planner === 'openai') {
    const [{ createOpenAiPlanner }, { createOpenAiClient }] = await Promise.all([import('./openai/openaiPlanner.js'), import('./openai/openaiClient.js')]);
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

export async function createChatAgent(config: Config, db: DatabasePort, log: Logger): Promise<ChatAgent> {
  if (config.planner === 'openai') {
    const [{ createOpenAiChatAgent }, { createOpenAiClient }] = await Promise.all([import('../chats/openaiChatAgent.js'), import('./openai/openaiClient.js')]);
    return createOpenAiChatAgent({ db, client: createOpenAiClient(config.openai), model: config.openai.model, log });
  }
  return createOfflineChatAgent();
}
