import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { REPO_ROOT } from '../harness/gateway.js';

export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of every dashboard page a test visits (git-ignored test artifacts). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

/**
 * Installs Debian's chromium when it is absent (CI runs as root on a fresh machine); a no-op when present.
 * Playwright's own browser download is not used: only the distribution's package.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium', { stdio: 'inherit' });
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is still not at ${CHROMIUM} after apt-get install`);
}

/** Headless Chromium with a fresh profile directory, removed on close. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
