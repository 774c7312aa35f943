// Real headless Chromium (Debian's) driven by playwright-core, for the popover tests.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const CHROMIUM = CANDIDATES.find((path) => existsSync(path)) ?? null;

export function launch(): Promise<Browser> {
  if (CHROMIUM === null) throw new Error('no chromium');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}
