#!/usr/bin/env node
// `trip-spec-lint`: Spectral and the AsyncAPI parser on a spec folder (cli/specLint.ts).
import { runCli } from './runCli.js';

await runCli('../cli/specLint.ts');
