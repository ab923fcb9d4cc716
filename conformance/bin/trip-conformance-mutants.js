#!/usr/bin/env node
// `trip-conformance-mutants`: the mutation self-test of the conformance runner against a running server (cli/mutants.ts).
import { runCli } from './runCli.js';

await runCli('../cli/mutants.ts');
