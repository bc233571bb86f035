/** Where tests look for the packaged extension unless told otherwise. */
export declare const DEFAULT_VSIX_PATH: string;
/** Runs vsce package (offline, --no-dependencies) and returns the .vsix path. */
export declare function packageVsix(options?: { out?: string }): string;
/** Packages a test extension (plain JavaScript, no dependencies) from its folder and returns the .vsix path. */
export declare function packageTestExtension(options: { root: string; out: string }): string;
