// The setup every end-to-end suite shares: a temporary workspace and storage folder, a scripted LLM
// server, and the packaged extension in the real workbench with no provider key from the
// environment (keys there would hide which one is used), all closed after the suite.
import { after, before } from 'node:test';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../fixtures/scripted-llm-server';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace';
import { openWorkbench, type Workbench } from './workbench';

/** What a suite works with; read it inside tests (it is filled in by the suite's `before`). */
export interface ScriptedWorkbench {
  readonly workspace: TempWorkspace;
  readonly storage: TempWorkspace;
  readonly llm: ScriptedLlmServer;
  readonly workbench: Workbench;
}

export interface ScriptedWorkbenchOptions {
  /** Fills the workspace and storage folders (and starts what the suite needs) before the workbench opens. */
  prepare?(folders: { readonly workspace: TempWorkspace; readonly storage: TempWorkspace }): void | Promise<void>;
  /** false: no provider is configured (a newcomer's machine); default: the scripted LLM server as `openai-compatible`. */
  provider?: boolean;
  /** User settings beside the provider's; a function is read after `prepare` (for addresses it started). */
  settings?: Record<string, unknown> | (() => Record<string, unknown>);
  /** Environment of the extension host beside the emptied keys and SMITH_STORAGE. */
  env?: Record<string, string>;
  /** What the workbench opens (default the workspace folder), e.g. a .code-workspace file in it. */
  open?(workspace: TempWorkspace): string;
}

/** Registers the suite's hooks (call inside describe); `name` tells the temp folders apart. */
export function useScriptedWorkbench(name: string, options: ScriptedWorkbenchOptions = {}): ScriptedWorkbench {
  let workspace: TempWorkspace | undefined;
  let storage: TempWorkspace | undefined;
  let llm: ScriptedLlmServer | undefined;
  let workbench: Workbench | undefined;
  before(async () => {
    workspace = createTempWorkspace(`smith-e2e-${name}-`);
    storage = createTempWorkspace(`smith-e2e-${name}-storage-`);
    await options.prepare?.({ workspace, storage });
    llm = await startScriptedLlmServer();
    workbench = await openWorkbench({
      workspace: options.open?.(workspace) ?? workspace.root,
      env: { SMITH_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', SMITH_STORAGE: storage.root, ...options.env },
      settings: {
        ...(options.provider === false ? {} : { 'smith.provider': 'openai-compatible', 'smith.baseUrl': llm.openAiBaseUrl, 'smith.model': 'scripted-model' }),
        ...(typeof options.settings === 'function' ? options.settings() : options.settings),
      },
    });
  });
  after(async () => {
    await workbench?.close();
    await llm?.close();
    workspace?.dispose();
    storage?.dispose();
  });
  return {
    get workspace() {
      return workspace!;
    },
    get storage() {
      return storage!;
    },
    get llm() {
      return llm!;
    },
    get workbench() {
      return workbench!;
    },
  };
}
