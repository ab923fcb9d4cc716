// The published asyncapi.yaml as @asyncapi/modelina 5.10 can use it. Two constructs of ours, both
// valid AsyncAPI 3 / JSON Schema, defeat it; each removal below changes no payload shape a client
// receives, and the modelina test fails once the untouched document works (then delete this file).
//
// * `if`/`then`/`else` (ChatStreamDto, TripPlanProgressMessage): modelina merges `then` and `else`
//   into the model and reuses one anonymous name for two schemas, so ChatStreamDto.isComplete and
//   TripPlanProgressMessage.dailyPlan come out as `"DAILY_PLAN_GENERATED" | "UPDATED"`.
// * message `traits` (the STOMP MESSAGE headers): once @asyncapi/parser applies a trait the payload
//   loses its component name, so the payload models are called `AnonymousSchema_8`, `_22`, `_64`.
import { parse, stringify } from 'yaml';

interface AsyncApiDocument {
  components: {
    schemas: Record<string, Record<string, unknown>>;
    messages: Record<string, Record<string, unknown>>;
  };
}

export function adaptForModelina(asyncapiYaml: string): string {
  const document = parse(asyncapiYaml) as AsyncApiDocument;
  for (const schema of Object.values(document.components.schemas)) {
    delete schema.if;
    delete schema.then;
    delete schema.else;
  }
  for (const message of Object.values(document.components.messages)) delete message.traits;
  return stringify(document);
}
