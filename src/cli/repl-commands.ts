import { join } from 'node:path';
import type { McpHub } from '../core/mcp/mcp-hub.js';
import type { PlanAct } from '../shared/plan-act.js';
import { listStoredTasks } from '../core/log/task-log.js';
import { Task, type TaskOptions } from '../core/task/task.js';
import type { HumanReporter } from './human-reporter.js';
import { stopLeftoverProcesses } from './leftover-processes.js';
import { runMcpReplCommand } from './mcp-repl-command.js';
import type { Style } from './style.js';
import { describeRewind, formatCheckpoints } from './checkpoint-commands.js';
import { rewindTask, type RewindScope } from '../core/checkpoints/rewind-task.js';
import { loadRules } from '../core/rules/rules-loader.js';
import { touchedPaths } from '../core/rules/touched-paths.js';
import { loadCustomCommands } from '../core/commands/custom-commands.js';
import { slashChoices } from '../core/commands/slash-commands.js';
import { customCommandText } from './command-text.js';
import { commandHelpLines } from './command-help.js';
import { InvalidTaskIdError, taskIdProblem } from '../shared/task-id.js';
import { builtinCommand, builtinCommandsOf, olderCommandName, parseSlashInput, readModeArgument, type SlashInput } from '../shared/builtin-commands.js';

/** What the slash commands act on: the current task, and the Plan/Act state and mode a new task starts in. */
export interface CliSession {
  task: Task | undefined;
  start: { mode: PlanAct; modeSlug: string };
  /** A task is running: commands that replace or rewrite it wait until it stops. */
  running: boolean;
  /** The user asked to quit (/exit while a task ran: it is stopped first). */
  quit: boolean;
}

/** What a command asks of the loop that runs it: quit, run the current task now, send a message (a custom command), or nothing. */
type CommandAction = 'exit' | 'run' | { readonly send: string } | undefined;

export const REPL_HELP = `Type a task to start it; after it ends, type more to continue the same task.
Lines typed while a task works are queued and reach the model with its next request.
Commands (they work at every prompt, also at an approval or a question):
${builtinCommandsOf('cli').flatMap(commandHelpLines).join('\n')}
Your own commands (Markdown files in .smith/commands/, .claude/commands/, .clinerules/workflows/,
<storage>/commands/ or ~/.claude/commands/) run as /name [arguments].
Ctrl+C stops the running step; press it again at the prompt to quit.`;

export { isSlashCommand } from './command-text.js';

/** Runs the REPL's slash commands, at its own prompt or typed while a task works. */
export class SlashCommands {
  constructor(
    private readonly session: CliSession,
    private readonly options: TaskOptions,
    private readonly reporter: HumanReporter,
    private readonly err: NodeJS.WritableStream,
    private readonly style: Style,
    private readonly mcp?: McpHub,
  ) {}

  /** `/plan`, `/act`: the current task and the next one switch to it. */
  private switchPlanAct(planAct: PlanAct): void {
    this.session.start = { ...this.session.start, mode: planAct };
    this.session.task?.switchMode(planAct);
    this.err.write(`Plan/Act: ${planAct}\n`);
  }

  /** Runs `text` (a slash command) and says what the loop should do next. */
  async run(text: string): Promise<CommandAction> {
    const { session, err, style, options } = this;
    const input = parseSlashInput(text);
    if (!input) return undefined;
    const builtin = builtinCommand(input, 'cli');
    if (!builtin) return await this.custom(input);
    const words = input.args === '' ? [] : input.args.split(/\s+/);
    const arg = words[0];
    if (session.running && builtin.whenStopped) {
      err.write(`/${input.name.toLowerCase()} waits until the task has stopped: press Ctrl+C to stop the running step first.\n`);
      return undefined;
    }
    switch (builtin.name) {
      case 'exit':
        if (session.running) {
          session.quit = true;
          err.write('Stopping the task, then quitting…\n');
          session.task?.abort();
          return undefined;
        }
        return 'exit';
      case 'help':
        err.write(`${REPL_HELP}\n${await this.customCommandList()}`);
        return undefined;
      case 'clear':
        this.dropQueued();
        session.task = undefined;
        err.write('Started fresh: the next message begins a new task.\n');
        return undefined;
      case 'history':
        for (const item of listStoredTasks(options.storageDir, (warning) => err.write(`${style.yellow(style.text(warning))}\n`)).slice(0, 20)) {
          err.write(`${item.taskId}  ${item.status.padEnd(11)}  ${style.text(item.task.split('\n')[0]!.slice(0, 70))}\n`);
        }
        return undefined;
      case 'events':
        if (!session.task) err.write('No current task.\n');
        else for (const event of session.task.log.events) err.write(`${style.text(JSON.stringify(event))}\n`);
        return undefined;
      case 'condense':
        if (!session.task) {
          err.write('No current task.\n');
          return undefined;
        }
        try {
          await session.task.condense();
          err.write('The history was condensed into a summary.\n');
        } catch (error) {
          err.write(`Could not condense: ${(error as Error).message}\n`);
        }
        return undefined;
      case 'plan':
      case 'act':
        this.switchPlanAct(builtin.name);
        return undefined;
      case 'mode': {
        const older = olderCommandName(input);
        if (older) err.write(`Note: ${older}\n`);
        const known = (options.modes ?? []).map((m) => m.slug);
        const wanted = readModeArgument(input.args, known);
        if (wanted.kind === 'unknown') {
          err.write(`Unknown mode "${style.text(wanted.slug)}". Available: ${known.join(', ')}\n`);
          return undefined;
        }
        if (wanted.kind === 'planAct') {
          this.switchPlanAct(wanted.planAct);
          return undefined;
        }
        if (wanted.kind === 'mode') {
          session.start = { ...session.start, modeSlug: wanted.slug };
          session.task?.switchModeSlug(wanted.slug);
        }
        err.write(`Mode: ${session.task?.state.modeSlug ?? session.start.modeSlug} (available: ${known.join(', ')})\n`);
        return undefined;
      }
      case 'resume':
        return this.resume(arg, words.slice(1).join(' '));
      case 'rules':
        err.write(`${this.rulesList()}\n`);
        return undefined;
      case 'permissions':
        err.write(`${this.permissionList()}\n`);
        return undefined;
      case 'skills':
        err.write(`${this.skillsList()}\n`);
        return undefined;
      case 'checkpoints':
        err.write(session.task ? `${formatCheckpoints(session.task.log.events, style)}\n` : 'No current task.\n');
        return undefined;
      case 'rewind':
        await this.rewind(words);
        return undefined;
      case 'mcp':
        err.write(this.mcp ? `${await runMcpReplCommand(words, this.mcp, style)}\n` : 'MCP is not available in this session.\n');
        return undefined;
    }
  }

  private customCommands() {
    const { commands, problems } = loadCustomCommands({ workspaceRoot: this.options.cwd, userCommandsDir: join(this.options.storageDir, 'commands') });
    for (const problem of problems) this.warn(problem);
    return commands;
  }

  private warn(problem: string): void {
    this.err.write(`${this.style.yellow(`Warning: ${this.style.text(problem)}`)}\n`);
  }

  private async customCommandList(): Promise<string> {
    // Servers connect in the background: their prompts are listed once each has connected or
    // run out of its timeout, as a task's first request waits for them.
    await this.mcp?.whenReady();
    const lines = slashChoices({ commands: this.customCommands(), ...(this.mcp ? { mcp: this.mcp } : {}) }).map(
      (c) =>
        `  /${c.name}${c.hint ? ` ${c.hint}` : ''}${c.description ? `  ${this.style.dim(c.description)}` : ''}${c.source.startsWith('MCP') ? '' : `  ${this.style.dim(`(${c.source})`)}`}`,
    );
    return lines.length === 0 ? '' : `Your commands:\n${lines.map((line) => this.style.text(line)).join('\n')}\n`;
  }

  /** /name [arguments]: a custom command or an MCP prompt sends its text (queued while a task works). */
  private async custom(input: SlashInput): Promise<CommandAction> {
    const { session, err, style } = this;
    const { name } = input;
    let text: string;
    try {
      await this.mcp?.whenReady();
      const expanded = await customCommandText(input, { options: this.options, mcp: this.mcp, warn: (problem) => this.warn(problem) });
      if (expanded === undefined) {
        err.write(`Unknown command /${name}. Type /help.\n`);
        return undefined;
      }
      text = expanded;
    } catch (error) {
      err.write(`${style.red(style.text((error as Error).message))}\n`);
      return undefined;
    }
    if (session.running && session.task) {
      session.task.queueUserMessage(text);
      err.write(`${style.dim(`queued: /${style.text(name)}`)}\n`);
      return undefined;
    }
    return { send: text };
  }

  /** The permission rules (deny first, as they are judged) and the hooks, with where each comes from. */
  private permissionList(): string {
    const { options, style } = this;
    const order = { deny: 0, ask: 1, allow: 2 } as const;
    const current = typeof options.permissions === 'function' ? options.permissions() : (options.permissions ?? []);
    const rules = [...current].sort((a, b) => order[a.effect] - order[b.effect]);
    const lines = rules.map((r) => `${r.effect.padEnd(5)}  ${style.text(r.rule)}  ${style.dim(`(${style.text(r.source)})`)}`);
    for (const [event, groups] of Object.entries(options.hooks ?? {})) {
      for (const group of groups ?? [])
        for (const hook of group.hooks)
          lines.push(
            `hook   ${event}${group.matcher ? `(${style.text(group.matcher)})` : ''}: ${style.text(hook.command)}  ${style.dim(`(${style.text(hook.source)})`)}`,
          );
    }
    return lines.length > 0 ? lines.join('\n') : 'No permission rules or hooks (see docs/permissions.md and docs/hooks.md).';
  }

  /** The Agent Skills as the next request would offer them, with where each came from. */
  private skillsList(): string {
    const { style } = this;
    const catalog = this.options.agentSkills?.refresh();
    if (!catalog || (catalog.entries.length === 0 && catalog.notes.length === 0))
      return 'No skills found (see docs/modes-skills-agents.md for the folders Smith reads).';
    const lines = catalog.entries.map(
      (e) =>
        `${e.offered ? style.green('on ') : style.dim('off')}  ${style.text(e.name)}  ${style.dim(style.text(e.location))}${e.note ? style.dim(`  (${style.text(e.note)})`) : ''}`,
    );
    for (const note of catalog.notes) lines.push(style.yellow(`skipped  ${style.text(note)}`));
    return lines.join('\n');
  }

  /** The rules files as the next request would use them. */
  private rulesList(): string {
    const { session, options, style } = this;
    const events = session.task?.log.events ?? [];
    const rules = loadRules({
      workspaceRoot: options.cwd,
      modeSlug: session.task?.state.modeSlug ?? session.start.modeSlug,
      touchedPaths: touchedPaths(events, options.cwd),
      ...(options.globalRulesDir ? { globalRulesDir: options.globalRulesDir } : {}),
      ...(options.disabledRules ? { disabled: options.disabledRules() } : {}),
    }).rules;
    if (rules.length === 0) return 'No rules files found (see docs/context.md for the files Smith reads).';
    return rules
      .map((r) => `${r.active ? style.green('on ') : style.dim('off')}  ${style.text(r.label)}${r.note ? style.dim(`  (${style.text(r.note)})`) : ''}`)
      .join('\n');
  }

  /** /rewind ID [--files-only | --conversation-only] [--force] */
  private async rewind(args: readonly string[]): Promise<void> {
    const { session, err, style } = this;
    const id = args.find((a) => !a.startsWith('--'));
    const unknown = args.filter((a) => a.startsWith('--') && !['--files-only', '--conversation-only', '--force'].includes(a));
    if (!session.task || !id || unknown.length > 0 || (args.includes('--files-only') && args.includes('--conversation-only'))) {
      err.write(session.task ? 'Usage: /rewind ID [--files-only | --conversation-only] [--force]   (/checkpoints lists them)\n' : 'No current task.\n');
      return;
    }
    const scope: RewindScope = args.includes('--files-only') ? 'files' : args.includes('--conversation-only') ? 'conversation' : 'both';
    try {
      const outcome = await rewindTask(session.task.log, this.options.checkpoints, { checkpointId: id, scope, force: args.includes('--force') });
      err.write(`${describeRewind(outcome, id, scope, style, '/rewind --force')}\n`);
      if (outcome.kind === 'rewound' && scope !== 'files') err.write('Type a message to continue from there.\n');
    } catch (error) {
      err.write(`${style.red(style.text((error as Error).message))}\n`);
    }
  }

  /** Says which queued messages are dropped with the task they were typed for. */
  private dropQueued(): void {
    for (const text of this.session.task?.takeQueuedMessages() ?? [])
      this.err.write(`${this.style.yellow(`Dropped the queued message: ${this.style.text(text)}`)}\n`);
  }

  /** /resume ID [message]: makes a stored task the current one; runs it when there is a message or it had not completed. */
  private async resume(taskId: string | undefined, message: string): Promise<CommandAction> {
    const { session, err, style } = this;
    if (!taskId) {
      err.write('Usage: /resume TASK_ID [message]   (/history lists the stored tasks)\n');
      return undefined;
    }
    const problem = taskIdProblem(taskId);
    if (problem !== undefined) {
      err.write(`${style.red(style.text(new InvalidTaskIdError(taskId, problem).message))}\n`);
      return undefined;
    }
    let task: Task;
    try {
      task = Task.resume(this.options, taskId);
      this.dropQueued();
    } catch (error) {
      err.write(`${style.red(style.text((error as Error).message))}\n`);
      return undefined;
    }
    // A resumed task never runs beside the processes its commands left when Smith was killed.
    await stopLeftoverProcesses(task.log.events, err, style);
    task.onUpdate((update) => this.reporter.handle(update));
    session.task = task;
    session.start = task.state;
    if (message) {
      task.addUserMessage(message);
      return 'run';
    }
    const completed = task.log.events.findLast((event) => event.type !== 'task_resumed')?.type === 'task_completed';
    if (!completed) return 'run';
    err.write(`Resumed task ${task.id} (completed). Type a message to continue it.\n`);
    return undefined;
  }
}
