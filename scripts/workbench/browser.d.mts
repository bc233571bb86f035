import type { BrowserContext } from 'playwright-core';

/** Flags Chromium is launched with. */
export declare const CHROMIUM_ARGS: readonly string[];

/** Launches Chromium with a fresh profile in `userDataDir`; close the returned context to stop it. */
export declare function launchChromium(options: { userDataDir: string; viewport?: { width: number; height: number } }): Promise<BrowserContext>;
