import type { ProviderSettingsView } from '../shared/protocol.js';
import type { PanelProviderSettings, ProviderChoice } from './panel-ports.js';
import type { ViewRequests } from './view-requests.js';

/** What the provider setup works with; the TaskController provides it. */
interface SetupWaitDeps {
  readonly settings: PanelProviderSettings;
  readonly views: ViewRequests;
  readonly emitState: () => void;
  readonly notifyError: (message: string) => void;
  /** Starts the task that waited for the setup (`showSetup`: whether a failure may ask for the Settings view). */
  readonly start: (text: string, options: { showSetup?: boolean }) => Promise<void>;
  /** The settings changed: live tasks take them with their next run. */
  readonly settingsChanged: () => Promise<void>;
}

/**
 * The provider settings as the panel shows them, and the task sent before they were complete: it
 * waits, whatever view the user opens, and starts once the setup is complete (saved in Settings or
 * in the settings file).
 */
export class SetupWait {
  private view: ProviderSettingsView;
  /** Counts settings refreshes; a refresh applies only while it is the latest. */
  private generation = 0;
  private pending: string | undefined;
  /** Saves of the Settings form under way. */
  private saving = 0;

  constructor(private readonly deps: SetupWaitDeps) {
    this.view = deps.settings.basics();
  }

  /** The snapshot's part: the settings shown and the task waiting for them. */
  state(): { readonly settings: ProviderSettingsView; readonly pendingTask?: string } {
    return { settings: this.view, ...(this.pending !== undefined ? { pendingTask: this.pending } : {}) };
  }

  /** True when the provider cannot run a task yet (refreshes what the panel shows about it). */
  async needsSetup(): Promise<boolean> {
    const view = await this.deps.settings.view();
    this.view = view;
    return (view.missing?.length ?? 0) > 0;
  }

  /** Keeps `text` until the setup is complete, and asks for the Settings view. */
  hold(text: string): void {
    this.pending = text;
    this.deps.views.request('settings');
    this.deps.emitState();
  }

  /** Takes the waiting task back (for the Task box); it no longer starts by itself. */
  giveBack(): string {
    const text = this.pending;
    if (text === undefined) throw new Error('No task is waiting for the setup.');
    this.pending = undefined;
    this.deps.emitState();
    return text;
  }

  /** Saves the provider choice; the key goes to the key store, an empty key removes the stored one. */
  async save(choice: ProviderChoice & { readonly apiKey?: string }): Promise<void> {
    // A save writes its keys one by one (each a change event): only the whole of it may start the waiting task.
    this.saving += 1;
    try {
      await this.deps.settings.save(choice);
      await this.refresh();
    } finally {
      this.saving -= 1;
    }
    // The task sent before the setup starts now (its failure is the Save's), unless the setup is
    // still incomplete or the settings change already started it.
    await this.startPending();
  }

  async refresh(): Promise<void> {
    // Several refreshes run at once (one Save changes settings and the key, each firing an event);
    // only the latest read may land, and an older one finishing late must not overwrite it.
    const generation = ++this.generation;
    const view = await this.deps.settings.view();
    if (generation !== this.generation) return;
    this.view = view;
    await this.deps.settingsChanged();
    this.deps.emitState();
    // A setup completed outside the Settings form (the settings file, another window) starts the
    // waiting task too, wherever the user is; a failure is told, and the task waits on.
    if (this.pending !== undefined && this.saving === 0 && (view.missing?.length ?? 0) === 0) {
      this.startPending({ showSetup: false }).catch((error: unknown) =>
        this.deps.notifyError(`The task waiting for the setup did not start: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  /** Starts the task waiting for the setup once the setup is complete; the view stays the user's. */
  private async startPending(options: { showSetup?: boolean } = {}): Promise<void> {
    const pending = this.pending;
    if (pending === undefined || (await this.needsSetup())) return;
    // Taken before the first await below, so a save and a settings change never start it twice.
    if (this.pending !== pending) return;
    this.pending = undefined;
    try {
      await this.deps.start(pending, options);
    } catch (error) {
      this.pending ??= pending;
      this.deps.emitState();
      throw error;
    }
  }
}
