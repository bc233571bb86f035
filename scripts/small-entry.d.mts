// Types for small-entry.mjs.
import type { Plugin } from 'esbuild';

/** The only files the entry bundle may contain (relative to the repository, forward slashes). */
export declare const ENTRY_FILES: readonly string[];
/** Fails the build when the bundle contains a file not in `allowed`. */
export declare function onlyOwnFiles(allowed: readonly string[]): Plugin;
