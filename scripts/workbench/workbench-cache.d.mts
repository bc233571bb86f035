// Types for workbench-cache.mjs.

/** What ensure-workbench.mjs recorded about a complete install. */
export interface WorkbenchInstall {
  codeServerVersion: string;
  codeServerReports: string;
  codeServerEntry: string;
  nodeVersion: string;
  node: string;
  chromium: string;
  chromiumVersion: string;
  installedAt: string;
}

export declare const CODE_SERVER_VERSION: string;
export declare const NODE_MAJOR: string;
export declare const CHROMIUM_PATH: string;
/** The repository root. */
export declare const REPO_ROOT: string;
/** Root of the cache; SMITH_WORKBENCH_CACHE overrides the per-user default. */
export declare function workbenchCacheDir(): string;
/** The marker's content when a complete install is present, else null. */
export declare function readWorkbenchMarker(cacheDir?: string): WorkbenchInstall | null;
/** Like readWorkbenchMarker, but throws an error that says how to install. */
export declare function requireWorkbench(cacheDir?: string): WorkbenchInstall;
