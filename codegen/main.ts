// `npm run codegen`: specs/openapi.yaml + specs/asyncapi.yaml (+ specs/internal/) -> generated/ and client/src/generated/. Deterministic: the
// same specs always produce byte-identical files.
import { generate } from './generate.js';
import { clientGeneratedDir, generatedDir } from './specFiles.js';
import { writeGenerated } from './writeGenerated.js';

const started = performance.now();
const { files, clientFiles, summary } = await generate();
const result = writeGenerated(generatedDir, files);
const client = writeGenerated(clientGeneratedDir, clientFiles);
const ms = Math.round(performance.now() - started);
process.stdout.write(
  `codegen: ${summary.operations} operations, ${summary.channels} channels, ${summary.messages} messages -> ` +
    `${Object.keys(files).length} files (${result.written.length} written, ${result.removed.length} removed, ` +
    `${result.unchanged} unchanged), client: ${Object.keys(clientFiles).length} files (${client.written.length} written, ` +
    `${client.removed.length} removed) in ${ms} ms\n`,
);
