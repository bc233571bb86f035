// Types for small-entry.mjs.
import type { Plugin } from 'esbuild';

/** The only files the entry bundle may contain (relative to the repository, forward slashes). */
export declare const ENTRY_FILES: readonly string[];
/** Fails the build when the bundle contains a file not in `allowed`. */
export declare function onlyOwnFiles(allowed: readonly string[]): Plugin;
/** The core's bundle, beside the entry in dist/. */
export declare const CORE_BUNDLE: string;
/** Turns the entry's require of the core into a require of the core's bundle. */
export declare function coreBesideEntry(): Plugin;
