// Reads a Claude Code session (`~/.claude/projects/<project>/<session id>.jsonl`), line by line so a
// session of any size streams through: one JSON entry a line (user, assistant, summary, system, …),
// the conversation a chain of entries linked by parentUuid.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { TokenUsage } from '../providers/types.js';
import { ConversationBuilder, type SourceMessage } from './conversation-builder.js';
import type { SourceBlock } from './import-types.js';
import { mapClaudeCodeCall } from './claude-code-tools.js';
import { ImportError, type ImportedSession } from './import-types.js';
import { NotCarried } from './not-carried.js';

/** The newest major version of Claude Code whose session files this reader knows. */
const KNOWN_MAJOR_VERSION = 2;

/** A conversation entry kept while reading: enough to rebuild its place in the chain and its message. */
interface Entry {
  readonly uuid: string | undefined;
  readonly parent: string | undefined;
  readonly message: SourceMessage | undefined;
  /** A summary Claude Code wrote when it compacted the conversation (it replaces what came before). */
  readonly compactSummary?: string;
}

/** Reads a Claude Code session file into Smith's events; `cwd` overrides the folder the session names. */
export async function readClaudeCodeSession(path: string, options: { readonly cwd?: string } = {}): Promise<ImportedSession> {
  const notes = new NotCarried();
  const entries: Entry[] = [];
  // Every entry's parent, those left out too, so a chain can be followed through them.
  const parents = new Map<string, string | undefined>();
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let model: string | undefined;
  let badLine: { number: number; error: string } | undefined;
  let number = 0;
  let sawEntry = false;
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    if (badLine) throw new ImportError(`${path}: line ${badLine.number} is not JSON (${badLine.error}), so this is not a whole Claude Code session`);
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      // Only the last line may be torn (Claude Code was writing it); anywhere else the file is damaged.
      badLine = { number, error: (error as Error).message };
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || typeof entry.type !== 'string')
      throw new ImportError(`${path}: line ${number} is not a Claude Code session entry (an object with a "type")`);
    checkVersion(entry.version, path, number);
    sawEntry = true;
    const uuid = typeof entry.uuid === 'string' ? entry.uuid : undefined;
    const parent = typeof entry.parentUuid === 'string' ? entry.parentUuid : typeof entry.logicalParentUuid === 'string' ? entry.logicalParentUuid : undefined;
    if (uuid) parents.set(uuid, parent);
    if (entry.type !== 'user' && entry.type !== 'assistant') {
      if (entry.type === 'file-history-snapshot') notes.add("Claude Code's file history (its checkpoints): Smith has no checkpoint from before the import");
      else if (entry.type !== 'summary' && !(entry.type === 'system' && entry.subtype === 'compact_boundary')) notes.add(`entries of type "${entry.type}"`);
      continue;
    }
    if (entry.isSidechain === true) {
      notes.add("messages of Claude Code's sub-agents (sidechains); only each sub-agent's final answer, as its Task call's result, is kept");
      continue;
    }
    sessionId ??= typeof entry.sessionId === 'string' ? entry.sessionId : undefined;
    cwd ??= typeof entry.cwd === 'string' && entry.cwd ? entry.cwd : undefined;
    const message = record(entry.message);
    if (!message) throw new ImportError(`${path}: line ${number} is a ${entry.type} entry without a message`);
    const ts = Date.parse(typeof entry.timestamp === 'string' ? entry.timestamp : '') || 0;
    if (entry.type === 'assistant') {
      if (entry.isApiErrorMessage === true || message.model === '<synthetic>') {
        notes.add('error replies Claude Code wrote itself (API errors, interruptions)');
        continue;
      }
      if (typeof message.model === 'string') model = message.model;
      entries.push({
        uuid,
        parent,
        message: {
          role: 'assistant',
          content: content(message.content),
          ts,
          ...usageOf(record(message.usage)),
          ...(typeof entry.costUSD === 'number' ? { cost: entry.costUSD } : {}),
          ...(typeof message.id === 'string' ? { replyId: message.id } : {}),
        },
      });
      continue;
    }
    const userContent = content(message.content);
    if (entry.isCompactSummary === true) {
      entries.push({ uuid, parent, message: undefined, compactSummary: textOf(userContent) });
      continue;
    }
    if (entry.isMeta === true) {
      notes.add('notes Claude Code added to the conversation for itself (caveats, loaded instructions)');
      continue;
    }
    if (isLocalCommand(userContent)) {
      notes.add('local slash commands and their output (/model, /clear, …)');
      continue;
    }
    entries.push({ uuid, parent, message: { role: 'user', content: userContent, ts } });
  }
  if (badLine) notes.add(`line ${badLine.number}, cut off (Claude Code was still writing it)`);
  if (!sawEntry) throw new ImportError(`${path} holds no Claude Code session entries`);
  const branch = activeBranch(entries, parents, notes);
  const sessionCwd = options.cwd ?? cwd;
  const builder = new ConversationBuilder({ agent: 'Claude Code', mapNative: (name, input) => mapClaudeCodeCall(name, input, sessionCwd) });
  for (const entry of branch) {
    if (entry.compactSummary !== undefined) builder.condensed(entry.compactSummary, entry.message?.ts ?? 0);
    else if (entry.message) builder.add(entry.message);
  }
  const { task, events, notes: builderNotes } = builder.finish();
  return {
    source: 'claude-code',
    path,
    sessionId: sessionId ?? basename(path, '.jsonl'),
    cwd: sessionCwd,
    provider: model ? 'anthropic' : undefined,
    model,
    task,
    events,
    notCarried: [...notes.lines(), ...builderNotes.lines()],
  };
}

/**
 * The conversation as it last stood: the chain from the newest entry back through its parents. A
 * message edited or rewound in Claude Code leaves the old branch in the file; it is left out.
 */
function activeBranch(entries: readonly Entry[], parents: ReadonlyMap<string, string | undefined>, notes: NotCarried): Entry[] {
  const byUuid = new Map(entries.flatMap((e) => (e.uuid ? [[e.uuid, e] as const] : [])));
  const last = entries.at(-1);
  if (!last?.uuid || entries.some((e) => !e.uuid)) return [...entries];
  const chain: Entry[] = [];
  const seen = new Set<string>();
  for (let uuid: string | undefined = last.uuid; uuid !== undefined && !seen.has(uuid); uuid = parents.get(uuid)) {
    seen.add(uuid);
    const entry = byUuid.get(uuid);
    if (entry) chain.push(entry);
  }
  chain.reverse();
  const left = entries.length - chain.length;
  if (left > 0) notes.add(`${left} message${left === 1 ? '' : 's'} of abandoned branches (edited or rewound in Claude Code)`);
  return chain;
}

function checkVersion(version: unknown, path: string, line: number): void {
  if (version === undefined) return;
  const major = typeof version === 'string' ? Number(/^(\d+)\./.exec(version)?.[1]) : Number.NaN;
  if (!Number.isInteger(major)) throw new ImportError(`${path}: line ${line} names an unknown Claude Code version ${JSON.stringify(version)}`);
  if (major > KNOWN_MAJOR_VERSION)
    throw new ImportError(
      `${path}: line ${line} was written by Claude Code ${version}, whose session format this Smith does not know (it reads up to ${KNOWN_MAJOR_VERSION}.x)`,
    );
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function content(value: unknown): string | SourceBlock[] {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((block): block is SourceBlock => record(block) !== undefined) : '';
}

function textOf(value: string | readonly SourceBlock[]): string {
  if (typeof value === 'string') return value;
  return value.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('\n\n');
}

/** Claude Code logs the user's local commands (/model, /clear) and their output as user entries the model never saw. */
function isLocalCommand(value: string | readonly SourceBlock[]): boolean {
  return /^\s*<(command-name|command-message|local-command-stdout|local-command-stderr)>/.test(textOf(value));
}

/** Anthropic's usage as Smith's: input counts the cached tokens too. */
function usageOf(usage: Record<string, unknown> | undefined): { usage?: TokenUsage } {
  if (!usage) return {};
  const n = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  const cacheRead = n('cache_read_input_tokens');
  const cacheWrite = n('cache_creation_input_tokens');
  return {
    usage: {
      inputTokens: n('input_tokens') + cacheRead + cacheWrite,
      outputTokens: n('output_tokens'),
      ...(cacheRead ? { cacheReadTokens: cacheRead } : {}),
      ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
    },
  };
}
