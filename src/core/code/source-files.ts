import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { languageForPath, type CodeLanguage } from './code-languages.js';

/** Whether a path is a file, a folder, or absent. */
export async function pathKind(absolutePath: string): Promise<'file' | 'directory' | undefined> {
  try {
    const info = await stat(absolutePath);
    if (info.isDirectory()) return 'directory';
    return info.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** A source file directly in a folder, with its language. */
interface SourceFile {
  readonly name: string;
  readonly language: CodeLanguage;
}

/** The supported source files directly in a folder. */
interface SourceFileListing {
  /** In name order, at most `limit` of them. */
  readonly files: readonly SourceFile[];
  /** How many supported files the folder has in all (more than files.length when cut). */
  readonly total: number;
}

/**
 * Lists the source files of supported languages directly in a folder (not its subfolders),
 * leaving out ignored ones and symlinks, which could lead outside what the user approved.
 */
export async function listSourceFiles(directory: string, ignore: IgnorePolicy, limit: number): Promise<SourceFileListing> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    const language = entry.isFile() ? languageForPath(entry.name) : undefined;
    if (language && !ignore.isIgnored(join(directory, entry.name))) files.push({ name: entry.name, language });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { files: files.slice(0, limit), total: files.length };
}
