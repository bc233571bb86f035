import { statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore from 'ignore';
import { NOTHING_IGNORED, type IgnorePolicy } from './ignore-policy.js';
import { IGNORE_FILE_BYTES } from './file-listing.js';
import { readRegularFileHead } from './regular-file.js';
import type { WorkspaceRoots } from './workspace-roots.js';

/** The name of the workspace file that fences paths off from every tool. */
const SMITH_IGNORE_FILE = '.smithignore';

/**
 * Loads the workspace's .smithignore (gitignore syntax). A missing file ignores nothing.
 * When the file exists it also fences itself off, as Cline and Roo Code do with theirs, so the
 * model cannot rewrite the rules that bind it.
 */
export async function loadSmithIgnore(workspaceRoot: string): Promise<IgnorePolicy> {
  const root = resolve(workspaceRoot);
  const file = join(root, SMITH_IGNORE_FILE);
  let head: { readonly bytes: Buffer; readonly more: boolean };
  try {
    head = await readRegularFileHead(file, IGNORE_FILE_BYTES);
  } catch (error) {
    if (isMissing(error)) return NOTHING_IGNORED;
    throw error;
  }
  // Cutting a fence would drop its last rules and let the tools reach what they named: refuse instead.
  if (head.more)
    throw new Error(
      `${file} is larger than ${IGNORE_FILE_BYTES / (1024 * 1024)} MiB; Smith reads no larger ${SMITH_IGNORE_FILE} (cutting it would drop rules). Shorten it.`,
    );
  const text = head.bytes.toString('utf8');
  const realRoot = await realpath(root).catch(() => root);
  // Case-insensitive on purpose: on macOS and Windows `Secrets/` and `secrets/` are one folder,
  // and ignoring a little too much is the safe way for a fence to fail.
  const rules = ignore().add(text).add(`/${SMITH_IGNORE_FILE}`);
  return {
    source: SMITH_IGNORE_FILE,
    isIgnored(absolutePath: string): boolean {
      const rel = relativeInside(realRoot, absolutePath) ?? relativeInside(root, absolutePath);
      if (!rel) return false;
      if (rules.ignores(rel)) return true;
      // A rule like `secrets/` only matches directories; stat only when that is the question.
      return rules.ignores(`${rel}/`) && isDirectory(absolutePath);
    },
  };
}

/** The .smithignore of every workspace folder as one policy; each folder's rules judge the paths inside it. */
export async function loadWorkspaceIgnore(roots: WorkspaceRoots): Promise<IgnorePolicy> {
  const policies = await Promise.all(roots.all.map((root) => loadSmithIgnore(root.path)));
  const active = policies.filter((policy) => policy !== NOTHING_IGNORED);
  if (active.length <= 1) return active[0] ?? NOTHING_IGNORED;
  return { source: SMITH_IGNORE_FILE, isIgnored: (absolutePath) => active.some((policy) => policy.isIgnored(absolutePath)) };
}

/** The path relative to root with forward slashes; undefined for root itself or paths outside it. */
function relativeInside(root: string, absolutePath: string): string | undefined {
  const rel = relative(root, resolve(absolutePath));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // A .smithignore that is a folder, FIFO or device holds no rules.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENOTREGULAR';
}
