#!/usr/bin/env node
// `trip-conformance`: the conformance suite against a running server (cli/conformance.ts).
import { runCli } from './runCli.js';

await runCli('../cli/conformance.ts');
