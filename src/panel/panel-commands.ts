import type { PlanAct } from '../shared/plan-act.js';
import { panelCommand } from './slash-input.js';

/** What the panel's own slash commands act on. */
export interface PanelCommandTargets {
  newTask(text: string): Promise<void>;
  clearTask(): Promise<void>;
  /** Condenses the shown task; refuses when there is none. */
  condenseShown(): Promise<void>;
  showSettings(): void;
  readonly modes: { command(args: string): void; setMode(mode: PlanAct): void };
}

/**
 * Runs `/newtask`, `/condense`, `/plan`, `/act`, `/mode`, `/skills` typed in the Task box; undefined
 * when `typed` is none of them. A refusal comes back as a rejected promise, as a failed request does.
 */
export function runPanelCommand(typed: string, targets: PanelCommandTargets): Promise<void> | undefined {
  const command = panelCommand(typed);
  if (!command) return undefined;
  switch (command.name) {
    case 'newtask':
      return command.args ? targets.newTask(command.args) : targets.clearTask();
    case 'condense':
      return targets.condenseShown();
  }
  try {
    if (command.name === 'skills') targets.showSettings();
    else if (command.name === 'mode') targets.modes.command(command.args);
    else targets.modes.setMode(command.name);
  } catch (error) {
    return Promise.reject(error);
  }
  return Promise.resolve();
}
