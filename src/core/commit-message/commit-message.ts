// The one request that writes a commit message: the changes (commit-changes.ts) in a prompt,
// redacted on its way out like every request Smith makes, retried as every request is, and the
// model's answer cleaned of what models wrap messages in. Both hosts (the CLI's
// `smith commit-message`, VS Code's Source Control button) call writeCommitMessage.
import { withRetries, type RetryInfo } from '../providers/retrying-provider.js';
import type { ApiProvider } from '../providers/types.js';
import { redactingProvider } from '../secrets/redacting-provider.js';
import type { SecretRedactor } from '../secrets/secret-redactor.js';
import type { CommitChanges } from './commit-changes.js';

const SYSTEM_PROMPT = `You write git commit messages. Given a repository's changes, reply with one commit message and nothing else: no preamble, no code fences, no quotes around it.

- The first line is a summary of at most 72 characters; then, when the change needs it, a blank line and a body wrapped at 72 characters that says what changed and why.
- Follow the style of the repository's recent commit subjects when they are given (prefixes such as "fix:", the tense, capitals); otherwise use the imperative mood ("Add", "Fix").
- Describe the changes as the diff shows them; do not invent motives or changes. Where parts of the diff were left out, judge from the file list.`;

/** A file list longer than this is cut in the prompt (the count is still given). */
const MAX_FILES_LISTED = 300;

/** The user message: the recent subjects, the file list, the stat line and the (bounded) patch. */
export function commitMessagePrompt(changes: CommitChanges): string {
  const lines: string[] = [];
  if (changes.recentSubjects.length > 0) lines.push('Recent commit subjects of this repository:', ...changes.recentSubjects.map((s) => `- ${s}`), '');
  lines.push(
    `The ${changes.scope === 'staged' ? 'staged changes' : 'changes of the working tree'} (${changes.files.length} file${changes.files.length === 1 ? '' : 's'}):`,
  );
  lines.push(...changes.files.slice(0, MAX_FILES_LISTED).map((file) => `${file.status}\t${file.path}`));
  if (changes.files.length > MAX_FILES_LISTED) lines.push(`… and ${changes.files.length - MAX_FILES_LISTED} more files`);
  if (changes.shortStat) lines.push(changes.shortStat);
  if (changes.withheld.length > 0)
    lines.push(`The diff of ${changes.withheld.length} of these files is withheld (.smithignore): ${changes.withheld.map((file) => file.path).join(', ')}`);
  lines.push('', changes.cut ? 'The diff (parts of it left out where marked):' : 'The diff:', '<diff>', changes.patch.replace(/\n$/, ''), '</diff>');
  return lines.join('\n');
}

/** The model's answer as a commit message: surrounding code fences, quotes and blank lines removed, trailing spaces trimmed. */
export function cleanCommitMessage(text: string): string {
  let message = text.replace(/\r\n/g, '\n').trim();
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1$/.exec(message);
  if (fenced) message = fenced[2]!.trim();
  if (message.length > 1 && /^["'`]/.test(message) && message.endsWith(message[0]!) && !message.slice(1, -1).includes(message[0]!))
    message = message.slice(1, -1).trim();
  return message
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** What writeCommitMessage needs besides the changes. */
export interface CommitMessageRequest {
  readonly provider: ApiProvider;
  /** Every request is redacted through it (the user's keys); absent: nothing to redact. */
  readonly redactor?: SecretRedactor;
  readonly signal?: AbortSignal;
  /** Told before each retry (a 429, a dropped connection). */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** Asks the model for the commit message of the changes; throws the provider's error, or an Error when the answer is empty. */
export async function writeCommitMessage(changes: CommitChanges, request: CommitMessageRequest): Promise<string> {
  const provider = withRetries(redactingProvider(request.provider, request.redactor), {
    maxRetries: 2,
    ...(request.onRetry ? { onRetry: request.onRetry } : {}),
  });
  let text = '';
  const stream = provider.createMessage({
    systemPrompt: SYSTEM_PROMPT,
    messages: [{ role: 'user', content: commitMessagePrompt(changes) }],
    ...(request.signal ? { signal: request.signal } : {}),
  });
  for await (const chunk of stream) {
    if (chunk.type === 'text') text += chunk.text;
    else if (chunk.type === 'restart') text = '';
  }
  const message = cleanCommitMessage(text);
  if (!message) throw new Error(`${request.provider.id} (${request.provider.modelId}) answered with no commit message`);
  return message;
}
