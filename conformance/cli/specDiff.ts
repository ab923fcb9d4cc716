// `npm run spec:diff -- <git-ref> [--fail-on-breaking]`: breaking-change check of both specs against
// a git ref, oasdiff-style (oasdiff itself is a Go binary we do not install). See `--help`.
import { runSpecDiff } from '../specDiff/run.js';

process.exitCode = runSpecDiff(process.argv.slice(2));
