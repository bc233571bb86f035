import * as vscode from 'vscode';
import type { AskSettingsTrust } from '../../core/permissions/settings-trust.js';

const TRUST = 'Trust';
const DONT = "Don't Trust";

/**
 * The question in the window about a workspace's `.smith/settings.json`: a notification naming the
 * rules and hook commands it would add. Not modal: the task goes on without them meanwhile.
 */
export const askSettingsTrustInWindow: AskSettingsTrust = async (_held, granted) => {
  const choice = await vscode.window.showWarningMessage(
    `This workspace's .smith/settings.json wants to allow and run: ${granted.join('; ')}. Allowed calls run without asking and hooks run as you. Trust them? (Smith remembers the answer until the file changes; the rules apply at once, the hooks from the next task.)`,
    TRUST,
    DONT,
  );
  return choice === TRUST ? true : choice === DONT ? false : undefined;
};
