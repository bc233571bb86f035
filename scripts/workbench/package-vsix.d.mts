/** Where tests look for the packaged extension unless told otherwise. */
export declare const DEFAULT_VSIX_PATH: string;
/** Runs vsce package (offline, --no-dependencies) and returns the .vsix path. */
export declare function packageVsix(options?: { out?: string }): string;
