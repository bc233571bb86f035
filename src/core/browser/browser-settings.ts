import { findExecutable } from '../search/find-executable.js';
import type { WebSearchSettings } from '../web-search/web-search-settings.js';

/** The browser browser_action drives: a local Chromium (found, or the user's), or a remote one over CDP. */
export interface BrowserSettings {
  /** A Chromium-family executable; absent: the first of CHROMIUM_NAMES on PATH. */
  readonly executablePath?: string;
  /** A running browser's DevTools endpoint (http://host:9222 or ws://…); wins over a local launch. */
  readonly cdpEndpoint?: string;
  /** Size of the page and so of its screenshots (default DEFAULT_VIEWPORT). */
  readonly viewport?: Viewport;
  /** Show the browser window (default: headless). */
  readonly headed?: boolean;
}

/** Width and height in CSS pixels. */
export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** Small enough that a screenshot stays cheap for the model, wide enough for most layouts (Cline's default too). */
export const DEFAULT_VIEWPORT: Viewport = { width: 900, height: 600 };

/** The names Chromium-family browsers install under, most specific first. */
const CHROMIUM_NAMES: readonly string[] = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'chrome'];

/** Where macOS and Windows keep Chrome and Edge, which are not on PATH there. */
const WELL_KNOWN_PATHS: readonly string[] = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
];

/** Parses "1280x800" (also with × or a comma); returns the viewport or why not. */
export function parseViewport(text: string): Viewport | string {
  const match = /^\s*(\d{2,5})\s*[x×,]\s*(\d{2,5})\s*$/i.exec(text);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 100 || height < 100 || width > 4000 || height > 4000)
    return `"${text}" is not a viewport size: give WIDTHxHEIGHT between 100 and 4000, e.g. 1280x800`;
  return { width, height };
}

/** The executable to launch, or a message saying what to install or set. */
export async function findBrowserExecutable(settings: BrowserSettings, env: NodeJS.ProcessEnv = process.env): Promise<string | { readonly problem: string }> {
  if (settings.executablePath) {
    const found = await findExecutable(settings.executablePath, env);
    return found ?? { problem: `the browser executable ${settings.executablePath} (from the settings) does not exist or cannot be run` };
  }
  for (const name of [...CHROMIUM_NAMES, ...WELL_KNOWN_PATHS]) {
    const found = await findExecutable(name, env);
    if (found) return found;
  }
  return {
    problem:
      'no Chromium-family browser was found (looked for chromium, google-chrome and microsoft-edge on PATH). Install one (e.g. apt-get install chromium) or set its path: smith.browser.executablePath in VS Code, --browser-path in the CLI',
  };
}

/** The user's settings for the web tools (browser_action, web_fetch and web_search). */
export interface WebToolSettings {
  readonly browser?: BrowserSettings;
  /** Hosts no web tool opens (nor shows as a search result): `example.com` (and its subdomains) or `*.example.com`. */
  readonly deniedDomains?: readonly string[];
  /** web_search's backend (absent: auto). */
  readonly search?: WebSearchSettings;
}
