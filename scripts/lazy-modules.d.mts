// Types for lazy-modules.mjs.
import type { Plugin } from 'esbuild';

/** Where the lazily loaded bundles go, relative to the bundles that load them. */
export declare const LAZY_FOLDER: string;
/** Every lazily loaded module under `srcDir`: its source file and the name of its bundle. */
export declare function findLazyModules(srcDir: string): { file: string; name: string }[];
/** For the start-up bundles: a require()/import() of a lazy module becomes a require of ./lazy/<name>.js; a static import fails the build. */
export declare function loadLazily(modules: readonly { file: string; name: string }[]): Plugin;
/** The packages the lazy modules re-export, by name. */
export declare function lazyPackages(modules: readonly { file: string }[]): string[];
/** Fails the build of a start-up bundle that contains one of `packages`. */
export declare function withoutLazyPackages(packages: readonly string[]): Plugin;
/** For the lazy bundles: fails when one imports Smith's own modules. */
export declare function thirdPartyOnly(): Plugin;
export declare const LEFT_OUT: readonly string[];
export declare function leaveOut(packages?: readonly string[]): Plugin;
