// Where Claude Code keeps a folder's sessions: `~/.claude/projects/<the folder's path, every other character than a letter or digit as ->/`.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One session file of a project folder. */
export interface ClaudeCodeSessionFile {
  readonly path: string;
  readonly sessionId: string;
  readonly modifiedAt: number;
  /** The first thing the user wrote, as far as the file's beginning shows it. */
  readonly firstMessage: string | undefined;
}

/** Claude Code's folder of the sessions run in `cwd` (`CLAUDE_CONFIG_DIR` moves `~/.claude`). */
export function claudeCodeProjectDir(cwd: string, env: NodeJS.ProcessEnv, home: string): string {
  return join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
}

/** The sessions in a project folder, newest first; none when the folder does not exist. */
export function listClaudeCodeSessions(dir: string): ClaudeCodeSessionFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl') && !name.startsWith('agent-'));
  } catch {
    return [];
  }
  return names
    .map((name) => {
      const path = join(dir, name);
      return { path, sessionId: name.slice(0, -'.jsonl'.length), modifiedAt: statSync(path).mtimeMs, firstMessage: firstUserText(path) };
    })
    .sort((a, b) => b.modifiedAt - a.modifiedAt);
}

/** The first user text among the file's first 256 KB (a listing should not read whole sessions). */
function firstUserText(path: string): string | undefined {
  const buffer = Buffer.alloc(256 * 1024);
  const fd = openSync(path, 'r');
  let length: number;
  try {
    length = readSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  for (const line of buffer.subarray(0, length).toString('utf8').split('\n')) {
    try {
      const entry = JSON.parse(line) as { type?: string; isMeta?: boolean; isSidechain?: boolean; message?: { content?: unknown } };
      if (entry.type !== 'user' || entry.isMeta || entry.isSidechain) continue;
      const content = entry.message?.content;
      const text = typeof content === 'string' ? content : Array.isArray(content) ? content.find((b) => b?.type === 'text')?.text : undefined;
      if (typeof text === 'string' && !/^\s*<(command-name|local-command)/.test(text)) return text.trim().split('\n')[0]!.slice(0, 120);
    } catch {
      // A line cut at the buffer's end, or a torn one: the listing goes on without it.
    }
  }
  return undefined;
}
