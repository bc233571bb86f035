import * as vscode from 'vscode';

/** A SecretStorage kept in memory, for a key store or controller of a test's own. */
export class MemorySecrets implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  /** How often a key was read. */
  reads = 0;
  private readonly emitter = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.emitter.event;
  async get(key: string): Promise<string | undefined> {
    this.reads++;
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
}
