// Picks the planner and the chat agent from the configuration (PLANNER=offline|openai).
import type { ChatAgent } from '../chats/chatAgent.js';
import { createOfflineChatAgent } from '../chats/offlineChatAgent.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { createOfflinePlanner } from './offlinePlanner.js';
import type { Planner } from './planner.js';

export function createPlanner(config: Config, db: Db, _log: Logger): Planner {
  return createOfflinePlanner({ db, delayMs: config.plannerDelayMs });
}

export function createChatAgent(_config: Config, _db: Db, _log: Logger): ChatAgent {
  return createOfflineChatAgent();
}
