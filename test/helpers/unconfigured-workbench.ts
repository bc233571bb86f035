// A newcomer's machine for end-to-end tests: the packaged extension in a fresh workbench profile
// with no provider key in the environment, a one-file workspace, its own storage, and a scripted
// LLM server the test fills into the panel's setup.
import { useScriptedWorkbench, type ScriptedWorkbench } from './scripted-workbench';

export type UnconfiguredWorkbench = ScriptedWorkbench;

/** Registers the suite's hooks (call inside describe); `name` tells the temp folders apart. */
export function useUnconfiguredWorkbench(name: string): UnconfiguredWorkbench {
  return useScriptedWorkbench(name, {
    provider: false,
    prepare: ({ workspace }) => void workspace.write('hello.ts', 'export const greeting = "hello";\n'),
  });
}
