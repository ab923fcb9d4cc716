#!/usr/bin/env node
// `trip-spec-diff`: breaking changes of the specs since a git ref (cli/specDiff.ts).
import { runCli } from './runCli.js';

await runCli('../cli/specDiff.ts');
