/** Options of {@link buildWebview}. */
export interface BuildWebviewOptions {
  /** Minify, drop sourcemaps and use React's production build. */
  readonly production?: boolean;
  /** Keep rebuilding on change until `dispose()`. */
  readonly watch?: boolean;
  /** Where to write; defaults to `dist/webview` in the repository. */
  readonly outdir?: string;
  /** Also build the dev harness (harness.html/js); defaults to true. */
  readonly harness?: boolean;
}

/** Builds `webview.js` + `webview.css` (and the harness) into `outdir`, copying the codicon font beside them. */
export function buildWebview(options?: BuildWebviewOptions): Promise<{ readonly outdir: string; dispose(): Promise<void> }>;
