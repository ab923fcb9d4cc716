// Debian's chromium driven by playwright-core, which never downloads a browser. Without
// /usr/bin/chromium the browser tests are skipped with one line saying so (.ci/run installs it).
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const executablePath = '/usr/bin/chromium';

/** true when the browser is there; otherwise warns once, naming the test file that skips */
export function chromiumAvailable(testName: string): boolean {
  const available = fs.existsSync(executablePath);
  if (!available) console.warn(`${testName} skipped: ${executablePath} is missing (apt-get install -y chromium)`);
  return available;
}

/** headless, no sandbox (CI runs as root), and no traffic of the browser's own */
export function launchHeadlessChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
