// The settings table of docs/configuration.md is the settings table of src/config/config.ts (what
// validation and `npm start -- --help` use), row for row: no setting undocumented, no stale row.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../src/config/config.js';
import { settingsHelp, settingsMarkdown } from '../../src/config/configHelp.js';
import { ensureFreshBuild } from '../support/freshBuild.js';
import { exitOf, repoRoot, serviceEnv } from '../support/serviceProcess.js';

const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');

/** The page's `## Settings` section, up to the next heading of that level (or the page's end). */
function settingsSection(markdown: string): string {
  const start = markdown.indexOf('\n## Settings\n');
  if (start < 0) throw new Error('docs/configuration.md has no "## Settings" section');
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

describe('configuration documentation', () => {
  // `npm start` runs dist/: built again first when a source is newer.
  beforeAll(ensureFreshBuild, 120_000);

  it('the settings table of docs/configuration.md is the one npm start -- --help --markdown prints', () => {
    const rows = settingsSection(page)
      .split('\n')
      .filter((line) => line.startsWith('|'));
    expect(rows).toEqual(settingsMarkdown().trimEnd().split('\n'));
  });

  it('npm start -- --help lists every setting with its default', async () => {
    const exit = await exitOf(
      spawn('npm', ['start', '--silent', '--', '--help'], { cwd: repoRoot, env: serviceEnv({}), stdio: ['ignore', 'pipe', 'pipe'] }),
      60_000,
    );
    expect(exit.code).toBe(0);
    expect(exit.stdout).toContain(settingsHelp());
  });

  it('--help names every setting with its default', () => {
    const help = settingsHelp();
    for (const setting of Object.values(settings)) {
      expect(help).toContain(setting.name);
      expect(help).toContain(`default: ${setting.defaultText.replaceAll('`', '')}`);
    }
  });
});
