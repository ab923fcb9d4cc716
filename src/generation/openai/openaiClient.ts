// The OpenAI SDK client the planner and the chat agent share, built from config.
import OpenAI from 'openai';
import type { Config } from '../../config/config.js';

export function createOpenAiClient(config: Config['openai']): OpenAI {
  return new OpenAI({
    // A local OpenAI-compatible server (OPENAI_BASE_URL) usually wants no key, but the SDK insists
    // on one, and would otherwise read OPENAI_API_KEY behind our back.
    apiKey: config.apiKey ?? 'not-needed',
    baseURL: config.baseUrl,
    // The planner retries whole attempts itself (and tells the model what went wrong); SDK retries
    // on top would multiply the wait.
    maxRetries: 0,
    timeout: 60_000,
  });
}
