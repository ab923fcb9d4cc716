// `trip-spec-diff <git-ref> [--fail-on-breaking]` (npm run spec:diff): breaking-change check of the
// specs against a git ref, oasdiff-style (oasdiff itself is a Go binary we do not install). See `--help`.
import { runSpecDiff } from '../specDiff/run.js';

process.exitCode = runSpecDiff(process.argv.slice(2));
