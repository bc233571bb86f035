// Types for zod-mini-only.mjs.
import type { Metafile, Plugin } from 'esbuild';

/** Where classic zod lives inside the package. */
export declare const CLASSIC_ZOD: readonly RegExp[];
/** A classic zod file among a build's inputs, with the file outside zod that leads to it; undefined when there is none. */
export declare function findClassicZod(metafile: Metafile): { file: string; via: string | undefined } | undefined;
/** Fails the build of a bundle that contains classic zod. */
export declare function withoutClassicZod(): Plugin;
