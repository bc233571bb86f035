// Writes sessions of other agents in their real shapes, for the import tests: Claude Code's session
// JSONL (one entry a line, a reply's blocks each in an entry of its own, linked by parentUuid) and
// Cline's and Roo Code's task folders (api_conversation_history.json as Anthropic messages,
// ui_messages.json as the chat, task_metadata.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Block = Record<string, unknown>;

/** A Claude Code session, entry by entry. */
export class ClaudeCodeSessionBuilder {
  private readonly entries: Record<string, unknown>[] = [];
  private last: string | null = null;
  private clock: number;
  private count = 0;
  private replies = 0;

  constructor(
    readonly cwd: string,
    readonly sessionId = '0d6c6b5e-2f6a-4c3e-9a53-7b1f0e8d2a11',
    private readonly version = '1.0.98',
    start = Date.parse('2025-07-01T09:00:00.000Z'),
  ) {
    this.clock = start;
  }

  /** The session's title line, as Claude Code writes it at the top. */
  summary(text: string): this {
    this.entries.push({ type: 'summary', summary: text, leafUuid: this.last });
    return this;
  }

  /** A message of the user: text, or content blocks (text, image, tool_result). */
  user(content: string | Block[], extra: Record<string, unknown> = {}): string {
    return this.entry('user', { role: 'user', content }, extra);
  }

  /** The results of calls, as Claude Code logs them: a user entry with tool_result blocks, and its toolUseResult. */
  toolResult(toolUseId: string, content: string | Block[], options: { isError?: boolean } = {}): string {
    return this.user([{ tool_use_id: toolUseId, type: 'tool_result', content, ...(options.isError ? { is_error: true } : {}) }], {
      toolUseResult: typeof content === 'string' ? content : { type: 'text' },
    });
  }

  /** A reply: Claude Code writes each of its blocks as an entry of its own, all with the reply's message id. */
  assistant(blocks: Block[], options: { usage?: Record<string, number>; model?: string; extra?: Record<string, unknown> } = {}): string {
    const id = `msg_01${String(++this.replies).padStart(4, '0')}`;
    let uuid = '';
    for (const block of blocks) {
      uuid = this.entry(
        'assistant',
        {
          id,
          type: 'message',
          role: 'assistant',
          model: options.model ?? 'claude-sonnet-4-20250514',
          content: [block],
          stop_reason: null,
          stop_sequence: null,
          usage: options.usage ?? {
            input_tokens: 4,
            cache_creation_input_tokens: 1200,
            cache_read_input_tokens: 9000,
            output_tokens: 80,
            service_tier: 'standard',
          },
        },
        { requestId: `req_${this.replies}`, ...options.extra },
      );
    }
    return uuid;
  }

  /** Any other entry (system, file-history-snapshot, …) in the chain. */
  other(type: string, fields: Record<string, unknown>): this {
    this.entries.push({ type, ...fields });
    return this;
  }

  /** Continues from an earlier entry (an edited or rewound message starts another branch). */
  branchFrom(uuid: string | null): this {
    this.last = uuid;
    return this;
  }

  lines(): string[] {
    return this.entries.map((entry) => JSON.stringify(entry));
  }

  write(path: string): string {
    writeFileSync(path, `${this.lines().join('\n')}\n`);
    return path;
  }

  private entry(type: 'user' | 'assistant', message: Record<string, unknown>, extra: Record<string, unknown>): string {
    const uuid = `6f1c2d3e-0000-4000-8000-${String(++this.count).padStart(12, '0')}`;
    this.clock += 1000;
    this.entries.push({
      parentUuid: this.last,
      isSidechain: false,
      userType: 'external',
      cwd: this.cwd,
      sessionId: this.sessionId,
      version: this.version,
      gitBranch: 'main',
      type,
      message,
      uuid,
      timestamp: new Date(this.clock).toISOString(),
      ...extra,
    });
    this.last = uuid;
    return uuid;
  }
}

/** A Cline (or Roo Code) task folder, message by message. */
export class ClineTaskBuilder {
  private readonly api: { role: 'user' | 'assistant'; content: Block[] | string }[] = [];
  private readonly ui: Record<string, unknown>[] = [];
  private clock: number;
  readonly taskId: string;

  constructor(
    readonly cwd: string,
    private readonly agent: 'cline' | 'roo-code' = 'cline',
    start = Date.parse('2025-07-02T09:00:00.000Z'),
  ) {
    this.clock = start;
    this.taskId = String(start);
  }

  /** The first message: the task in <task> tags, what its mentions attached, and the environment details. */
  task(text: string, options: { images?: Block[]; attached?: string } = {}): this {
    const ts = this.tick();
    const body = options.attached ? `${text}\n\n${options.attached}` : text;
    this.api.push({ role: 'user', content: [{ type: 'text', text: `<task>\n${body}\n</task>` }, ...(options.images ?? []), this.environment(true)] });
    this.ui.push({ ts, type: 'say', say: 'task', text, images: [] });
    return this;
  }

  /** A reply, and the api_req_started line the chat logs for its request (tokens and cost). */
  reply(
    text: string,
    usage: { tokensIn: number; tokensOut: number; cacheReads?: number; cacheWrites?: number; cost?: number } = { tokensIn: 1500, tokensOut: 90, cost: 0.0051 },
  ): this {
    const ts = this.tick();
    this.ui.push({ ts, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: '…', cacheReads: 0, cacheWrites: 0, ...usage }) });
    this.api.push({ role: 'assistant', content: [{ type: 'text', text }] });
    this.ui.push({ ts: this.tick(), type: 'say', say: 'text', text, partial: false });
    return this;
  }

  /** A reply with native tool calls (newer Roo Code and Cline versions). */
  nativeReply(blocks: Block[]): this {
    const ts = this.tick();
    this.ui.push({
      ts,
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify({ request: '…', tokensIn: 800, tokensOut: 40, cacheReads: 0, cacheWrites: 0, cost: 0.002 }),
    });
    this.api.push({ role: 'assistant', content: blocks });
    return this;
  }

  /** The result of the reply's XML tool call, as the agent writes it in the next user message. */
  result(tool: string, subject: string | undefined, output: string): this {
    this.tick();
    this.api.push({
      role: 'user',
      content: [{ type: 'text', text: `[${tool}${subject ? ` for '${subject}'` : ''}] Result:` }, { type: 'text', text: output }, this.environment(false)],
    });
    return this;
  }

  /** A user message of blocks as given (native tool_result blocks). */
  userBlocks(blocks: Block[]): this {
    this.tick();
    this.api.push({ role: 'user', content: [...blocks, this.environment(false)] });
    return this;
  }

  /** The user's reply to a completion, as Cline sends it: the completion's result, with the feedback. */
  feedback(text: string): this {
    const ts = this.tick();
    this.api.push({
      role: 'user',
      content: [
        { type: 'text', text: '[attempt_completion] Result:' },
        {
          type: 'text',
          text: `The user has provided feedback on the results. Consider their input to continue the task, and then attempt completion again.\n<feedback>\n${text}\n</feedback>`,
        },
        this.environment(false),
      ],
    });
    this.ui.push({ ts, type: 'say', say: 'user_feedback', text, images: [] });
    return this;
  }

  /** A checkpoint the agent took (Cline's chat records its commit hash). */
  checkpoint(): this {
    this.ui.push({ ts: this.tick(), type: 'say', say: 'checkpoint_created', lastCheckpointHash: 'a1b2c3d4e5f6', isCheckpointCheckedOut: false });
    return this;
  }

  /** Writes the folder under `root` at the agent's own place (`<root>/<extension id>/tasks/<id>`); returns it. */
  write(root: string, options: { metadata?: boolean; ui?: boolean } = {}): string {
    const dir = join(root, this.agent === 'cline' ? 'saoudrizwan.claude-dev' : 'rooveterinaryinc.roo-cline', 'tasks', this.taskId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'api_conversation_history.json'), JSON.stringify(this.api));
    if (options.ui !== false) writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify(this.ui));
    if (options.metadata !== false)
      writeFileSync(
        join(dir, 'task_metadata.json'),
        JSON.stringify({
          files_in_context: [{ path: 'a.txt', record_state: 'active', record_source: 'read_tool', cline_read_date: this.clock, cline_edit_date: null }],
          model_usage: [{ ts: this.clock, model_id: 'claude-3-7-sonnet-20250219', model_provider_id: 'anthropic', mode: 'act' }],
          environment_history: [],
        }),
      );
    return dir;
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  private environment(first: boolean): Block {
    const files = first ? `\n\n# Current ${this.agent === 'cline' ? 'Working' : 'Workspace'} Directory (${this.cwd}) Files\na.txt` : '';
    return {
      type: 'text',
      text: `<environment_details>\n# VSCode Visible Files\na.txt\n\n# Current Time\n7/2/2025, 9:00:00 AM (UTC)${files}\n</environment_details>`,
    };
  }
}
