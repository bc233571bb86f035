// Types for zod-english-only.mjs.
import type { Plugin } from 'esbuild';

/** Bundles zod's English messages only. */
export declare function zodEnglishOnly(): Plugin;
