// A newcomer's machine for end-to-end tests: the packaged extension in a fresh workbench profile
// with no provider key in the environment, a one-file workspace, its own storage, and a scripted
// LLM server the test fills into the panel's setup.
import { after, before } from 'node:test';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../fixtures/scripted-llm-server';
import { createTempWorkspace, type TempWorkspace } from './temp-workspace';
import { openWorkbench, type Workbench } from './workbench';

export interface UnconfiguredWorkbench {
  readonly workspace: TempWorkspace;
  readonly storage: TempWorkspace;
  readonly llm: ScriptedLlmServer;
  readonly workbench: Workbench;
}

/** Registers the suite's hooks (call inside describe); `name` tells the temp folders apart. */
export function useUnconfiguredWorkbench(name: string): UnconfiguredWorkbench {
  let workspace: TempWorkspace | undefined;
  let storage: TempWorkspace | undefined;
  let llm: ScriptedLlmServer | undefined;
  let workbench: Workbench | undefined;
  before(async () => {
    workspace = createTempWorkspace(`smith-e2e-${name}-`);
    workspace.write('hello.ts', 'export const greeting = "hello";\n');
    storage = createTempWorkspace(`smith-e2e-${name}-storage-`);
    llm = await startScriptedLlmServer();
    workbench = await openWorkbench({
      workspace: workspace.root,
      env: { SMITH_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', SMITH_STORAGE: storage.root },
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
