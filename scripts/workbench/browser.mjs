// Debian's Chromium driven by playwright-core (playwright cannot download its own browsers here).
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from './workbench-cache.mjs';

/** Flags from notes/real-vscode-offline.md: headless, no sandbox as root, and no calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium with a fresh profile in `userDataDir`; close the returned context to stop it. */
export async function launchChromium({ userDataDir, viewport = { width: 1440, height: 900 } }) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
}
