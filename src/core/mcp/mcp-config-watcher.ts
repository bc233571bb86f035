import { existsSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { mergeMcpConfigFiles, readMcpConfigFileWith, readMcpConfigText, type McpConfig, type McpConfigFile, type McpConfigSource } from './mcp-config.js';
import type { WorkspaceTrustCheck } from './workspace-trust.js';

/** Options for watching the MCP config files. */
interface McpConfigWatcherOptions {
  readonly sources: readonly McpConfigSource[];
  /** Called with the merged configuration whenever a file's content changed. */
  onConfig(config: McpConfig): void;
  /** Quiet time before a burst of file events is acted on. */
  readonly debounceMs?: number;
  /** Whether the workspace file's servers may start (default: nothing is trusted). */
  readonly workspaceTrust?: WorkspaceTrustCheck;
  /** The variables `${NAME}` references expand from (default: process.env), read at each load. */
  readonly env?: () => Readonly<Record<string, string | undefined>>;
}

/**
 * Watches the config files and reports a new merged configuration when one changes. It watches
 * folders rather than files, so editors that save by writing a new file and renaming it over the
 * old one (vim, JetBrains) and files that do not exist yet are both seen. A file that stops parsing
 * keeps its last valid servers running, with the error reported.
 */
export class McpConfigWatcher {
  private readonly lastGood = new Map<string, McpConfigFile>();
  private readonly lastText = new Map<string, string | undefined>();
  private readonly watchers = new Map<string, { close(): void }>();
  private timer: NodeJS.Timeout | undefined;
  private config: McpConfig;
  private disposed = false;

  constructor(private readonly options: McpConfigWatcherOptions) {
    this.config = this.load();
  }

  /** The configuration as last read. */
  current(): McpConfig {
    return this.config;
  }

  /** Starts watching; changes are reported through onConfig. */
  start(): void {
    this.arm();
  }

  /** Re-reads the files now; reports and returns the config when any file's text changed. */
  reload(): McpConfig {
    const changed = this.options.sources.some((s) => readText(s) !== this.lastText.get(s.path));
    if (changed && !this.disposed) {
      this.config = this.load();
      this.options.onConfig(this.config);
    }
    return this.config;
  }

  /** Reads and merges again even when no file changed (after the user answered the trust question); reports the result. */
  refresh(): McpConfig {
    if (this.disposed) return this.config;
    this.config = this.load();
    this.options.onConfig(this.config);
    return this.config;
  }

  /** Stops watching. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private load(): McpConfig {
    const effective: McpConfigFile[] = [];
    const kept: McpConfig['problems'][number][] = [];
    for (const source of this.options.sources) {
      this.lastText.set(source.path, readText(source));
      const file = readMcpConfigFileWith(source, this.options.env?.() ?? process.env);
      if (file.ok) {
        this.lastGood.set(source.path, file);
        effective.push(file);
        continue;
      }
      const previous = this.lastGood.get(source.path);
      if (previous) {
        effective.push(previous);
        kept.push({ ...file.problem, message: `${file.problem.message} (its servers keep their last valid settings until it is fixed)` });
      } else effective.push(file);
    }
    const merged = mergeMcpConfigFiles(effective, this.options.workspaceTrust ? { workspaceTrust: this.options.workspaceTrust } : {});
    return { ...merged, problems: [...kept, ...merged.problems] };
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.disposed) return;
      this.arm();
      this.reload();
    }, this.options.debounceMs ?? 100);
  }

  /** Watches, for each file, its folder, or the closest existing ancestor while the folder is missing. */
  private arm(): void {
    const wanted = new Map<string, Set<string>>();
    for (const source of this.options.sources) {
      const { dir, name } = closestExisting(source.path);
      if (!wanted.has(dir)) wanted.set(dir, new Set());
      wanted.get(dir)!.add(name);
    }
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const [dir, names] of wanted) {
      this.watchers.get(dir)?.close();
      this.watchers.set(dir, this.watchDir(dir, names));
    }
  }

  private watchDir(dir: string, names: ReadonlySet<string>): { close(): void } {
    try {
      const watcher: FSWatcher = watch(dir, { persistent: false }, (_event, filename) => {
        if (filename === null || names.has(filename.toString())) this.schedule();
      });
      watcher.on('error', () => this.schedule());
      return watcher;
    } catch {
      // Out of inotify watches, or a network drive: poll the entries instead.
      const paths = [...names].map((name) => `${dir}${sep}${name}`);
      for (const path of paths) watchFile(path, { interval: 1000, persistent: false }, () => this.schedule());
      return {
        close: () => {
          for (const path of paths) unwatchFile(path);
        },
      };
    }
  }
}

function readText(source: McpConfigSource): string | undefined {
  return readMcpConfigText(source).text;
}

/** The closest existing folder above a path and the name of its child on the way to the path. */
function closestExisting(path: string): { dir: string; name: string } {
  let child = path;
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) {
    child = dir;
    dir = dirname(dir);
  }
  return { dir, name: relative(dir, child).split(sep)[0] ?? basename(child) };
}
