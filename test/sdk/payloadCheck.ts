// Turns payloads seen on the wire into a TypeScript file that assigns them to generated model
// types, so tsc decides whether the models describe what the service really sends.
import fs from 'node:fs';
import path from 'node:path';

export interface TypedPayloads {
  /** the generated model (file and type name) */
  model: string;
  payloads: unknown[];
}

export function writePayloadCheck(file: string, modelsDir: string, groups: TypedPayloads[]): void {
  const from = path.relative(path.dirname(file), modelsDir);
  const lines = [
    ...groups.map(({ model }) => `import type { ${model} } from './${from}/${model}';`),
    '',
    ...groups.map(({ model, payloads }) => `export const received${model}: ${model}[] = ${JSON.stringify(payloads, null, 2)};`),
  ];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}
