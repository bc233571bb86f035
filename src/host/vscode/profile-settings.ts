import * as vscode from 'vscode';
import { parseProfiles } from '../../shared/api-profiles.js';
import type { ApiProfile } from '../../shared/protocol.js';
import { SETTINGS_SECTION } from './settings.js';

/** `smith.profiles`: the user's named API configurations (those that are not valid are left out). */
export function readProfiles(
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration(SETTINGS_SECTION),
): Readonly<Record<string, ApiProfile>> {
  return parseProfiles(config.get<unknown>('profiles'), 'smith.profiles').profiles;
}

/** Keeps a provider choice as the named profile in the user's settings (replacing one of that name). */
export async function saveProfile(
  name: string,
  profile: ApiProfile,
  config: vscode.WorkspaceConfiguration = vscode.workspace.getConfiguration(SETTINGS_SECTION),
): Promise<void> {
  const current = config.inspect<unknown>('profiles')?.globalValue;
  const profiles = typeof current === 'object' && current !== null && !Array.isArray(current) ? current : {};
  await config.update('profiles', { ...profiles, [name]: profile }, vscode.ConfigurationTarget.Global);
}

/** The profiles to show beside the settings, when there are any. */
export function withProfiles<T extends object>(view: T): T & { profiles?: Readonly<Record<string, ApiProfile>> } {
  const profiles = readProfiles();
  return Object.keys(profiles).length > 0 ? { ...view, profiles } : view;
}
