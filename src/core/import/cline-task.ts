// Reads a Cline or Roo Code task folder (`…/globalStorage/saoudrizwan.claude-dev/tasks/<id>`,
// `…/rooveterinaryinc.roo-cline/tasks/<id>`): api_conversation_history.json (the messages as sent,
// Anthropic's shape), ui_messages.json (the chat, with each request's tokens and cost) and
// task_metadata.json (the models used), when present.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ImportSource } from '../log/conversation-events.js';
import type { TokenUsage } from '../providers/types.js';
import { ConversationBuilder } from './conversation-builder.js';
import type { SourceBlock } from './import-types.js';
import { CLINE_GRAMMAR, mapClineCall, nativeParams } from './cline-tools.js';
import { ImportError, type ImportedSession } from './import-types.js';
import { NotCarried } from './not-carried.js';

/** The file holding a task's messages; a folder without it is not a task. */
export const CLINE_HISTORY_FILE = 'api_conversation_history.json';

/** Larger JSON files are refused: they are read whole, and a file this big is not a task's. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;

/** Tags Cline and Roo Code put around what a message's @-mentions attached. */
const CONTEXT_TAGS = ['file_content', 'folder_content', 'url_content', 'workspace_diagnostics', 'git_working_state', 'terminal_output', 'git_commit'];

/** Whether `dir` looks like a Cline or Roo Code task folder. */
export function isClineTaskFolder(dir: string): boolean {
  return existsSync(join(dir, CLINE_HISTORY_FILE));
}

/** Reads a task folder into Smith's events; `cwd` overrides the folder its messages name. */
export function readClineTask(dir: string, source: Extract<ImportSource, 'cline' | 'roo-code'>, options: { readonly cwd?: string } = {}): ImportedSession {
  const agent = source === 'cline' ? 'Cline' : 'Roo Code';
  const notes = new NotCarried();
  const history = readJson(join(dir, CLINE_HISTORY_FILE), agent);
  if (!Array.isArray(history)) throw new ImportError(`${join(dir, CLINE_HISTORY_FILE)} is not a list of messages, so this is not a ${agent} task`);
  const uiFile = join(dir, 'ui_messages.json');
  const ui = existsSync(uiFile) ? readJson(uiFile, agent) : undefined;
  if (ui !== undefined && !Array.isArray(ui)) throw new ImportError(`${uiFile} is not a list of chat messages`);
  if (ui === undefined) notes.add('token counts and costs (the folder has no ui_messages.json)');
  const metaFile = join(dir, 'task_metadata.json');
  const meta = existsSync(metaFile) ? record(readJson(metaFile, agent)) : undefined;
  const requests = requestsOf((ui ?? []) as unknown[], notes, agent);
  const models = Array.isArray(meta?.model_usage) ? (meta.model_usage as unknown[]).map(record).filter((m) => m !== undefined) : [];
  const lastModel = models.at(-1);
  const messages = history.map((raw, index) => {
    const message = record(raw);
    const role = message?.role;
    if (!message || (role !== 'user' && role !== 'assistant') || !(typeof message.content === 'string' || Array.isArray(message.content)))
      throw new ImportError(`${join(dir, CLINE_HISTORY_FILE)}: message ${index + 1} is not a user or assistant message with content`);
    return {
      role: role as 'user' | 'assistant',
      content: message.content as string | SourceBlock[],
      ts: typeof message.ts === 'number' ? message.ts : undefined,
    };
  });
  const cwd = options.cwd ?? workspaceOf(messages[0]?.content);
  const fallbackTs = (ui as { ts?: unknown }[] | undefined)?.find((m) => typeof m?.ts === 'number')?.ts as number | undefined;
  const builder = new ConversationBuilder({
    agent,
    mapNative: (name, input) => mapClineCall(name, nativeParams(input)),
    xml: { grammar: CLINE_GRAMMAR, map: mapClineCall },
    splitUserText,
  });
  let reply = 0;
  let ts = fallbackTs ?? statSync(join(dir, CLINE_HISTORY_FILE)).mtimeMs;
  for (const message of messages) {
    const request = message.role === 'assistant' ? requests[reply++] : undefined;
    ts = message.ts ?? request?.ts ?? ts;
    builder.add({
      role: message.role,
      content: message.content,
      ts,
      ...(request?.usage ? { usage: request.usage } : {}),
      ...(request?.cost !== undefined ? { cost: request.cost } : {}),
    });
  }
  const { task, events, notes: builderNotes } = builder.finish();
  return {
    source,
    path: dir,
    sessionId: basename(dir),
    cwd,
    provider: typeof lastModel?.model_provider_id === 'string' ? lastModel.model_provider_id : undefined,
    model: typeof lastModel?.model_id === 'string' ? lastModel.model_id : undefined,
    task,
    events,
    notCarried: [...notes.lines(), ...builderNotes.lines()],
  };
}

function readJson(file: string, agent: string): unknown {
  const size = statSync(file).size;
  if (size > MAX_JSON_BYTES)
    throw new ImportError(`${file} is ${Math.round(size / 1024 / 1024)} MB, more than a ${agent} task file can be (${MAX_JSON_BYTES / 1024 / 1024} MB)`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ImportError(`${file} is not valid JSON (${(error as Error).message})`);
  }
}

/** Each model request the chat logged (api_req_started), in order: its time, tokens and cost. */
function requestsOf(ui: readonly unknown[], notes: NotCarried, agent: string): { ts: number; usage?: TokenUsage; cost?: number }[] {
  const requests: { ts: number; usage?: TokenUsage; cost?: number }[] = [];
  for (const raw of ui) {
    const message = record(raw);
    if (!message) continue;
    if (message.say === 'checkpoint_created' || typeof message.lastCheckpointHash === 'string')
      notes.add(`${agent}'s checkpoints: Smith has no checkpoint from before the import`);
    if (message.say !== 'api_req_started' || typeof message.text !== 'string') continue;
    let info: Record<string, unknown> | undefined;
    try {
      info = record(JSON.parse(message.text));
    } catch {
      info = undefined;
    }
    const n = (key: string) => (typeof info?.[key] === 'number' ? (info[key] as number) : undefined);
    const tokensIn = n('tokensIn');
    const tokensOut = n('tokensOut');
    const cacheReads = n('cacheReads') ?? 0;
    const cacheWrites = n('cacheWrites') ?? 0;
    requests.push({
      ts: typeof message.ts === 'number' ? message.ts : 0,
      ...(tokensIn !== undefined || tokensOut !== undefined
        ? {
            usage: {
              inputTokens: (tokensIn ?? 0) + cacheReads + cacheWrites,
              outputTokens: tokensOut ?? 0,
              ...(cacheReads ? { cacheReadTokens: cacheReads } : {}),
              ...(cacheWrites ? { cacheWriteTokens: cacheWrites } : {}),
            },
          }
        : {}),
      ...(n('cost') !== undefined ? { cost: n('cost') } : {}),
    });
  }
  return requests;
}

/** The workspace folder the first message's environment details name. */
function workspaceOf(content: string | readonly SourceBlock[] | undefined): string | undefined {
  const texts = typeof content === 'string' ? [content] : (content ?? []).flatMap((b) => (typeof b.text === 'string' ? [b.text] : []));
  for (const text of texts) {
    const match = /# Current (?:Working|Workspace) Directory \((.+?)\) Files/.exec(text);
    if (match) return match[1]!.trim();
  }
  return undefined;
}

/**
 * A user message as Cline and Roo Code write it: the user's words (inside <task>, <feedback>,
 * <answer> or <user_message> when wrapped), what mentions attached, and the environment details.
 */
function splitUserText(raw: string): { text: string; context?: string; environment?: string } {
  let text = raw;
  let environment: string | undefined;
  text = text.replace(/<environment_details>\n?([\s\S]*?)\n?<\/environment_details>/g, (_all, inner: string) => {
    environment = inner;
    return '';
  });
  const context: string[] = [];
  for (const tag of CONTEXT_TAGS) {
    text = text.replace(new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?</${tag}>`, 'g'), (block) => {
      context.push(block);
      return '';
    });
  }
  // A resumed task's note is the agent's own; only the user's new words in it are kept.
  if (/^\s*\[TASK RESUMPTION\]/.test(text)) {
    const words = /<user_message>\n?([\s\S]*?)\n?<\/user_message>/.exec(text);
    text = words ? words[1]! : '';
  }
  // The reminder the agent sent after a reply without a tool call is not the user's.
  text = text.replace(/^\s*\[ERROR\] You did not use a tool in your previous response![\s\S]*$/, '');
  const wrapped = /^\s*<(task|feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>\s*$/.exec(text);
  if (wrapped) text = wrapped[2]!;
  return { text: text.trim(), ...(context.length > 0 ? { context: context.join('\n\n') } : {}), ...(environment !== undefined ? { environment } : {}) };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
