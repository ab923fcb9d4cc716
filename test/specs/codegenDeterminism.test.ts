// Codegen is deterministic and generated/ (and client/src/generated/) is in sync with the specs: generating twice gives the same
// bytes, and they equal what is committed (CI's drift check says the same with git status).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import { clientGeneratedDir, generatedDir } from '../../codegen/specFiles.js';

describe('codegen', () => {
  it('produces identical output on every run and matches generated/', async () => {
    const first = await generate();
    const second = await generate();
    expect(second.files).toEqual(first.files);
    for (const [relative, content] of Object.entries(first.files)) {
      expect(fs.readFileSync(path.join(generatedDir, relative), 'utf8'), `generated/${relative} is stale: run npm run codegen`).toBe(content);
    }
    expect(second.clientFiles).toEqual(first.clientFiles);
    for (const [relative, content] of Object.entries(first.clientFiles)) {
      expect(fs.readFileSync(path.join(clientGeneratedDir, relative), 'utf8'), `client/src/generated/${relative} is stale: run npm run codegen`).toBe(content);
    }
  }, 60_000);

  it('leaves no cross-file $ref in the bundled asyncapi document', () => {
    const bundled = fs.readFileSync(path.join(generatedDir, 'asyncapi.bundled.yaml'), 'utf8');
    expect(bundled).not.toMatch(/\$ref: ["']?\.\.?\//);
  });
});
