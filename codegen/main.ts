// `npm run codegen`: specs/openapi.yaml + specs/asyncapi.yaml (+ specs/internal/) -> generated/. Deterministic: the
// same specs always produce byte-identical files.
import { clientRealtimeDir, emitClientRealtime } from './client/emitClientRealtime.js';
import { generate } from './generate.js';
import { generatedDir } from './specFiles.js';
import { writeGenerated } from './writeGenerated.js';

const started = performance.now();
const { files, summary } = await generate();
const result = writeGenerated(generatedDir, files);
writeGenerated(clientRealtimeDir, await emitClientRealtime());
const ms = Math.round(performance.now() - started);
process.stdout.write(
  `codegen: ${summary.operations} operations, ${summary.channels} channels, ${summary.messages} messages -> ` +
    `${Object.keys(files).length} files (${result.written.length} written, ${result.removed.length} removed, ` +
    `${result.unchanged} unchanged) in ${ms} ms\n`,
);
