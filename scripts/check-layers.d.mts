// Types for check-layers.mjs.

/** The folders of src/core, lowest first. */
export declare const CORE_ORDER: readonly string[];
/** Every layering problem of the repository at `root`, one line each (empty when the layering holds). */
export declare function layerProblems(root: string): string[];
