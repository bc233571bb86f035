import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TextChunkDecoder } from '../tool-kit/file-text.js';
import { formatListing } from '../workspace/file-listing.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { type EditorProblem, formatProblems } from './editor-problems.js';
import { refusalReason, withheldNote, type ReadGuard, type WithheldFile } from '../workspace/read-guard.js';
import { readRegularFileHead } from '../workspace/regular-file.js';
import { listWorkspaceFolder } from '../workspace/root-listing.js';
import { WorkspaceRoots } from '../workspace/workspace-roots.js';
import type { Attachment } from '../log/attachment.js';

/** A message with its mentions expanded: the text as typed plus the context block sent with it. */
export interface ExpandedMessage {
  readonly text: string;
  /** The attached context, '' when the text mentions nothing. */
  readonly context: string;
  readonly attachments: readonly Attachment[];
  /** Mentions that attached nothing, with why (also told to the model in the context). */
  readonly problems: readonly string[];
}

/** Where mentions are resolved; the sources only an editor has are optional. */
export interface MentionEnvironment {
  /** The primary workspace folder (git mentions are read there). */
  readonly cwd: string;
  /** All folders of a multi-root workspace (absent: `cwd` alone). */
  readonly workspace?: WorkspaceRoots;
  readonly ignore: IgnorePolicy;
  /** The user's Read rules: a file they withhold is named, never attached (nor its changes in a diff). */
  readonly readGuard?: ReadGuard;
  /** The workspace's errors and warnings (VS Code only); those of withheld or ignored files are left out here. */
  problems?(): Promise<readonly EditorProblem[]>;
  /** The latest output of the active terminal (VS Code only). */
  terminal?(): Promise<string>;
  /** A web page as Markdown; without it, URLs are left as text. */
  fetchPage?(url: string, signal?: AbortSignal): Promise<string>;
  readonly signal?: AbortSignal;
}

/** Longest text one mention attaches; a longer one is cut with a note. */
export const MAX_MENTION_CHARS = 50_000;

/** Bytes of a mentioned file read at most (every character of the text attached can take 4): a huge or sparse file is never read whole. */
const MENTION_HEAD_BYTES = MAX_MENTION_CHARS * 4;

const run = promisify(execFile);
// `@` at the start or after whitespace or an opening bracket/quote (so e-mail addresses are no mentions).
const MENTION = /(?<=^|[\s("'`[])@(https?:\/\/[^\s<>"'`]+|[^\s,;()<>"'`[\]]+)/g;
const TRAILING = /[.,;:!?]+$/;

/** The mentions in a text, in order, without duplicates ("@src/a.ts." names src/a.ts). */
export function findMentions(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const ref = (match[1] ?? '').replace(TRAILING, '');
    if (ref !== '') found.add(ref);
  }
  return [...found];
}

/**
 * Attaches what a message mentions: `@path/to/file`, `@folder/`, `@git-changes`, `@<commit>`,
 * `@https://…`, and in an editor `@problems` and `@terminal`. A mention of something that does not
 * exist (an npm scope, a handle) is left as plain text; one that exists but may not be attached
 * (outside the workspace, in .smithignore, binary) is refused with the reason.
 */
export async function expandMentions(text: string, env: MentionEnvironment): Promise<ExpandedMessage> {
  const blocks: string[] = [];
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  for (const ref of findMentions(text)) {
    const outcome = await resolveMention(ref, env).catch((error: unknown) => ({ problem: `@${ref} could not be attached: ${(error as Error).message}` }));
    if (!outcome) continue;
    if ('problem' in outcome) {
      problems.push(outcome.problem);
      continue;
    }
    const cut = !outcome.cut && outcome.body.length > MAX_MENTION_CHARS;
    const truncated = cut || outcome.cut === true;
    const body = cut ? `${outcome.body.slice(0, MAX_MENTION_CHARS)}\n[Cut at ${MAX_MENTION_CHARS} characters: read the rest with the tools.]` : outcome.body;
    blocks.push(`<${outcome.tag} ${outcome.attribute}="${ref}">\n${body}\n</${outcome.tag}>`);
    attachments.push({ kind: outcome.kind, ref, sha256: createHash('sha256').update(body).digest('hex'), chars: body.length, truncated });
  }
  if (problems.length > 0) blocks.push(`<mention_problems>\n${problems.join('\n')}\n</mention_problems>`);
  return { text, context: blocks.length === 0 ? '' : `<context>\n${blocks.join('\n\n')}\n</context>`, attachments, problems };
}

/** `cut`: the body is already cut to MAX_MENTION_CHARS and says so. */
type Resolved = { kind: Attachment['kind']; tag: string; attribute: string; body: string; cut?: true } | { problem: string } | undefined;

async function resolveMention(ref: string, env: MentionEnvironment): Promise<Resolved> {
  if (/^https?:\/\//.test(ref)) {
    if (!env.fetchPage) return undefined;
    return { kind: 'url', tag: 'url', attribute: 'href', body: await env.fetchPage(ref, env.signal) };
  }
  if (ref === 'problems') {
    if (!env.problems) return { problem: '@problems works in the VS Code panel only.' };
    const body = formatProblems(await env.problems(), { ignore: env.ignore, ...(env.readGuard ? { readGuard: env.readGuard } : {}) });
    return { kind: ref, tag: ref, attribute: 'source', body: body || '(no problems)' };
  }
  if (ref === 'terminal') {
    if (!env.terminal) return { problem: '@terminal works in the VS Code panel only.' };
    return { kind: ref, tag: ref, attribute: 'source', body: (await env.terminal()) || '(no terminal output)' };
  }
  if (ref === 'git-changes') return { kind: 'git-changes', tag: 'git_changes', attribute: 'source', body: await gitChanges(env) };
  const path = await pathMention(ref, env);
  if (path) return path;
  if (/^[0-9a-f]{7,40}$/i.test(ref)) return commitMention(ref, env);
  return undefined;
}

async function pathMention(ref: string, env: MentionEnvironment): Promise<Resolved> {
  const workspace = env.workspace ?? WorkspaceRoots.single(env.cwd);
  const resolved = workspace.resolve(ref);
  const stats = statSync(resolved.absolute, { throwIfNoEntry: false });
  if (!stats) return undefined;
  if (!resolved.root) return { problem: `@${ref} is outside the workspace and was not attached.` };
  if (env.ignore.isIgnored(resolved.absolute)) return { problem: `@${ref} is excluded by ${env.ignore.source} and was not attached.` };
  if (stats.isDirectory()) {
    const listing = await listWorkspaceFolder(workspace, resolved.root, resolved.absolute, { recursive: true, limit: 200, ignore: env.ignore });
    return { kind: 'folder', tag: 'folder', attribute: 'path', body: formatListing(listing) };
  }
  if (!stats.isFile()) return { problem: `@${ref} is not a regular file and was not attached.` };
  // Judged as written (a link's own name counts) and where it leads, as read_file would be.
  const refusal = env.readGuard?.refusal(ref);
  if (refusal) return { problem: `@${ref} withheld: ${refusalReason(refusal)}.` };
  const head = await readRegularFileHead(resolved.absolute, MENTION_HEAD_BYTES);
  const decoder = new TextChunkDecoder();
  const text = decoder.push(head.bytes);
  // A cut head may end inside a character: only a whole file must decode to its end.
  const rest = text === undefined || head.more ? '' : decoder.end();
  if (text === undefined || rest === undefined) return { problem: `@${ref} is a binary file and was not attached.` };
  if (!head.more) return { kind: 'file', tag: 'file', attribute: 'path', body: text + rest };
  const shown = text.slice(0, MAX_MENTION_CHARS);
  const size = head.size > head.bytes.length ? `${head.size} bytes` : `more than ${MENTION_HEAD_BYTES} bytes`;
  return {
    kind: 'file',
    tag: 'file',
    attribute: 'path',
    cut: true,
    body: `${shown}\n[@${ref} has ${size}: only its first ${MENTION_HEAD_BYTES} bytes were read and ${shown.length} characters attached. Read the rest with read_file.]`,
  };
}

async function gitChanges(env: MentionEnvironment): Promise<string> {
  const cwd = env.cwd;
  const status = await git(cwd, ['status', '--short']);
  if (status.trim() === '') return '(no uncommitted changes)';
  const diffOf = async (base: readonly string[]) => {
    const { excluded, note } = await withheldChanges(env, [...base, '--name-only', '-z']);
    return (await git(cwd, [...base, '--no-color', '--no-ext-diff', ...excluded])) + note;
  };
  const diff = await diffOf(['diff', '--no-renames', 'HEAD']).catch(() => diffOf(['diff', '--no-renames']));
  return `${status.trimEnd()}\n\n${diff}`.trimEnd();
}

async function commitMention(ref: string, env: MentionEnvironment): Promise<Resolved> {
  const type = await git(env.cwd, ['cat-file', '-t', ref]).catch(() => '');
  if (type.trim() !== 'commit') return undefined;
  const { excluded, note } = await withheldChanges(env, ['show', '--no-renames', '--format=', '--name-only', '-z', ref]);
  return {
    kind: 'commit',
    tag: 'commit',
    attribute: 'hash',
    body: (await git(env.cwd, ['show', '--stat', '--patch', '--no-color', '--no-ext-diff', '--no-renames', ref, ...excluded])).trimEnd() + note,
  };
}

/**
 * The files of a diff the Read rules withhold: pathspecs that leave them out of the patch (their
 * names stay in the stat and the status) and the note naming them. `listing` lists the diff's
 * paths, NUL-separated and relative to the repository's top.
 */
async function withheldChanges(env: MentionEnvironment, listing: readonly string[]): Promise<{ excluded: string[]; note: string }> {
  const guard = env.readGuard;
  if (!guard?.covers()) return { excluded: [], note: '' };
  const top = (await git(env.cwd, ['rev-parse', '--show-toplevel'])).trim();
  const withheld: WithheldFile[] = [];
  for (const path of (await git(env.cwd, listing)).split('\0')) {
    if (path === '') continue;
    const refusal = guard.refusal(join(top, path));
    if (refusal) withheld.push({ display: path, refusal });
  }
  if (withheld.length === 0) return { excluded: [], note: '' };
  return { excluded: ['--', ':(top)', ...withheld.map((f) => `:(top,exclude,literal)${f.display}`)], note: `\n${withheldNote(withheld)}` };
}

async function git(cwd: string, args: readonly string[]): Promise<string> {
  // No pager, no prompts, and the user's config cannot run external diff tools.
  const { stdout } = await run('git', ['-c', 'core.pager=cat', ...args], {
    cwd,
    maxBuffer: 32 * 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout;
}
