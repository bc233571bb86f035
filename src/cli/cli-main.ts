// Everything the CLI does past --help and --version: bundled on its own as dist/cli-main.js and
// loaded by main.ts (the dist/cli.js entry) only when a command needs it.
import { realpathSync } from 'node:fs';
import { OverlayFileSystem } from '../core/workspace/overlay-file-system.js';
import { openSession, sessionProviders } from '../core/session/open-session.js';
import { cliModeSettings, reportModes } from './cli-modes.js';
import { Task } from '../core/task/task.js';
import { unpricedModels } from '../core/task/cost-limit.js';
import { SUBCOMMANDS, parseCliArgs } from './args.js';
import { SUBCOMMAND_RUNNERS, subcommandOf } from './subcommands.js';
import { subcommandIo } from './subcommand-io.js';
import { UsageError } from './usage-error.js';
import type { CliOptions } from './cli-options.js';
import { createCliHost } from './cli-host.js';
import { cliAgentSettings, reportAgents } from './cli-agents.js';
import { cliSessionSettings } from './cli-session-settings.js';
import { defaultStorageDir } from './default-storage.js';
import { HumanReporter } from './human-reporter.js';
import { failedStartSummary, jsonSummary, machineOutputOf } from './json-summary.js';
import { stopLeftoverProcesses } from './leftover-processes.js';
import { LineSource } from './line-source.js';
import { startCliMcp, terminalTrustPrompt } from './mcp-setup.js';
import { mcpRootsOf } from '../core/mcp/mcp-roots.js';
import { decliningElicitor, terminalElicitor } from './terminal-elicitation.js';
import { cliRedactor } from './cli-secrets.js';
import { expandForCli } from './cli-mentions.js';
import { addedRoots } from './added-roots.js';
import { eventsOfThisRun, streamJsonLine, writeStreamJson } from './stream-json.js';
import { imagesFromFlags, NO_COMMANDS, openJsonInput, permissionSettings, terminalSettingsTrustPrompt, writePatch } from './run-options.js';
import { printOutcome } from './outcome-printer.js';
import { listModels, applyStoredModelCatalog } from './list-models-command.js';
import { reportCliFailure } from './cli-failure.js';
import { usageTotals } from '../core/task/ui-projection.js';
import { condenseProviderConfigFrom, modeProviderConfigsFrom, providerConfigFrom } from './provider-settings.js';
import { readStdin } from './read-stdin.js';
import { reportInterruptedRestores } from './restore-recovery.js';
import { runRepl } from './repl.js';
import { runInteractive } from './interactive-run.js';
import { SlashCommands, isSlashCommand, type CliSession } from './repl-commands.js';
import { taskMessageText, type CommandTextSources } from './command-text.js';
import { onStopSignals, signalExitCode } from './stop-signals.js';
import { createStyle, type Style } from './style.js';
import { cliSkillSettings } from './skill-setup.js';
import { chainEvents, type runTaskChain, type TaskChainResult } from '../core/task/task-chain.js';
import { chooseMode } from './mode-choice.js';
import { DEFAULT_MODE_SLUG } from '../core/modes/built-in-modes.js';
import { printWorktreeEnd, resumedWorktreePlace, startInWorktree } from './worktree-run.js';
import type { TaskWorktree } from '../core/worktrees/worktree-types.js';

declare const SMITH_VERSION: string | undefined;

/** Exit codes: 0 completed, 1 failed or hit a limit, 2 usage error. */
async function main(argv: readonly string[]): Promise<number> {
  const subcommand = subcommandOf(argv[0]);
  if (subcommand) return SUBCOMMAND_RUNNERS[subcommand](argv.slice(1), subcommandIo());
  // --help and --version were answered by main.ts before this bundle was loaded.
  const options = parseCliArgs(argv, process.cwd());
  // main.ts loads the smaller list-models bundle instead; the same function either way.
  if (options.listModels) return listModels(options);
  const storageDir = options.storage ?? defaultStorageDir();
  reportInterruptedRestores(storageDir, process.stderr, createStyle(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, cliRedactor(process.env)));
  applyStoredModelCatalog(storageDir, process.stderr);
  let cwd: string;
  try {
    cwd = realpathSync(options.cwd);
  } catch {
    throw new UsageError(`--cwd folder does not exist: ${options.cwd}`);
  }
  const additionalRoots = addedRoots(cwd, options.addDirs);
  const stdinIsTty = Boolean(process.stdin.isTTY);
  const jsonInput = options.input === 'stream-json' ? openJsonInput(options) : undefined;
  let taskText = options.task;
  if (!taskText && !options.resume && !stdinIsTty) taskText = (await readStdin(process.stdin)).trim();
  if (!taskText && !options.resume && !stdinIsTty) throw new UsageError('no task given (pass it as an argument or on stdin)');

  const redactor = cliRedactor(process.env);
  const style = createStyle(Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, redactor);
  // Built first: a provider that cannot be built says what to fix before anything starts.
  const condense = condenseProviderConfigFrom(options, process.env);
  const providers = sessionProviders({
    main: providerConfigFrom(options, process.env),
    profiles: modeProviderConfigsFrom(options, process.env),
    ...(condense ? { condense } : options.condenseModel ? { condenseModel: options.condenseModel } : {}),
  });
  const provider = providers.main;
  // Made once the model settings are known to be usable, so a mistake there leaves no worktree behind.
  if (options.worktree && options.resume) throw new UsageError('--worktree starts a new task; a resumed task goes on where it ran');
  if (options.worktree && options.dryRun)
    throw new UsageError('--worktree and --dry-run cannot be used together (a dry run writes nothing; a worktree is a checkout)');
  const worktreePlace = options.worktree
    ? await startInWorktree(options.worktree, cwd, taskText, storageDir, process.stderr, style)
    : options.resume
      ? resumedWorktreePlace(storageDir, options.resume)
      : undefined;
  if (worktreePlace) cwd = worktreePlace.cwd;
  // Approvals and answers are read from stdin unless the task itself came from there.
  const stdinFree = !jsonInput && (stdinIsTty || Boolean(options.task) || Boolean(options.resume));
  const lines = stdinFree ? new LineSource(process.stdin, process.stderr, stdinIsTty) : undefined;
  if (options.dryRun && !taskText && !options.resume) throw new UsageError('--dry-run needs a task (the REPL writes files)');
  const baseHost = createCliHost(lines, process.stderr, style);
  const overlay = options.dryRun ? new OverlayFileSystem(baseHost.files) : undefined;
  // Trust questions are asked only on a terminal; otherwise what waits for trust stays off unless --trust-workspace.
  const askOnTerminal = lines && stdinIsTty && process.stderr.isTTY && options.output === 'human' ? lines : undefined;
  const settings = await permissionSettings(
    storageDir,
    cwd,
    options.trustWorkspace,
    style,
    askOnTerminal ? terminalSettingsTrustPrompt(askOnTerminal, process.stderr, style) : undefined,
  );
  const agentSkills = await cliSkillSettings({
    cwd,
    roots: [cwd, ...additionalRoots.map((root) => root.path)],
    storageDir,
    skillDirs: options.skillDirs,
    trustWorkspace: options.trustWorkspace,
    style,
    ...(askOnTerminal ? { ask: askOnTerminal } : {}),
  });
  const mcp = await startCliMcp({
    cwd,
    storageDir,
    ...(options.mcpConfig ? { configFile: options.mcpConfig } : {}),
    version: typeof SMITH_VERSION === 'string' ? SMITH_VERSION : '0.0.0-dev',
    trustWorkspace: options.trustWorkspace,
    ...(askOnTerminal ? { askTrust: terminalTrustPrompt(askOnTerminal, process.stderr, style) } : {}),
    // Someone at a terminal can open the sign-in address; a CI job cannot, and must not wait for it.
    signInOnItsOwn: askOnTerminal !== undefined,
    // Forms are asked only on a terminal; --yes never answers one.
    elicitor: askOnTerminal
      ? terminalElicitor(askOnTerminal, process.stderr, style)
      : decliningElicitor(
          (message) => process.stderr.write(`${style.yellow(style.text(message))}\n`),
          jsonInput ? 'stream-json input has no way to answer a form' : 'no terminal to ask on',
        ),
    roots: mcpRootsOf([{ path: cwd }, ...additionalRoots]),
    redactor,
    warn: (message) => process.stderr.write(`${style.yellow(style.text(message))}\n`),
  });
  const agents = await cliAgentSettings(
    storageDir,
    cwd,
    options.trustWorkspace,
    askOnTerminal ? { lines: askOnTerminal, err: process.stderr, style } : undefined,
  );
  const modes = await cliModeSettings(
    { storageDir, cwd, otherRoots: additionalRoots.map((root) => root.path) },
    options.trustWorkspace,
    askOnTerminal ? { lines: askOnTerminal, err: process.stderr, style } : undefined,
  );
  const environment = await openSession({
    place: { cwd, additionalRoots, storageDir, ...(worktreePlace ? { worktree: worktreePlace.worktree } : {}) },
    providers,
    settings: cliSessionSettings(options, { ...settings, agents, modes, agentSkills }, process.env, overlay !== undefined),
    ports: {
      host: {
        ...baseHost,
        ...(jsonInput ? { approvals: jsonInput.approvalPort, questions: jsonInput.questionPort } : {}),
        ...(overlay ? { files: overlay, processes: NO_COMMANDS } : {}),
      },
      redactor,
      mcp: mcp.wiring,
    },
  }).catch(async (error: unknown) => {
    await mcp.dispose();
    throw error;
  });
  const unpriced = options.maxCost === undefined ? [] : unpricedModels(environment.options);
  if (unpriced.length > 0) {
    await environment.dispose();
    await mcp.dispose();
    throw new UsageError(
      `--max-cost needs the model's prices, and the prices of ${unpriced.join(', ')} are unknown (not in Smith's catalogue): give them with --input-price and --output-price (US dollars per million tokens)`,
    );
  }
  reportModes(environment.modes, process.stderr, style);
  reportAgents(environment.agents, process.stderr, style);
  const choice = chooseMode(options, environment.modes.modes);
  for (const note of [...options.deprecations, ...choice.notes, ...environment.modes.notes])
    process.stderr.write(`${style.yellow(`Note: ${style.text(note)}`)}\n`);
  const modeSlug = choice.modeSlug ?? DEFAULT_MODE_SLUG;
  const reporter = new HumanReporter(process.stderr, style, options.quiet ? 'quiet' : options.verbose ? 'verbose' : 'normal', options.output === 'human');

  try {
    if (!taskText && !options.resume) return await runRepl(environment.options, { mode: choice.mode, modeSlug }, lines!, reporter, style, mcp.hub);
    const images = await imagesFromFlags(options.images, environment.options, provider);
    if (images.images.length > 0 && !taskText) throw new UsageError('--image needs a task or a --resume message to go with');
    const resumed = options.resume ? Task.resume(environment.options, options.resume) : undefined;
    if (resumed) {
      // A resumed task never runs beside the processes its commands left when Smith was killed.
      await stopLeftoverProcesses(resumed.log.events, process.stderr, style);
      if (choice.planActGiven) resumed.switchMode(choice.mode);
      if (choice.modeSlug) resumed.switchModeSlug(choice.modeSlug);
    }
    // The task's session is known before its message's hooks run: SessionStart goes first.
    const session = resumed ? resumed.messageSession() : Task.newSession(environment.options, { mode: choice.mode });
    // `smith "/review src/queue.ts"`: a command file or MCP prompt is expanded as the REPL does.
    const commandSources: CommandTextSources = {
      options: environment.options,
      mcp: mcp.hub,
      warn: (problem) => process.stderr.write(`${style.yellow(`Warning: ${style.text(problem)}`)}\n`),
    };
    if (taskText) taskText = await taskMessageText(taskText, commandSources);
    const expanded = taskText ? await expandForCli(environment.options, taskText, process.stderr, style, session) : undefined;
    const mentioned =
      expanded || images.images.length > 0
        ? { ...expanded, attachments: [...(expanded?.attachments ?? []), ...images.attachments], images: images.images }
        : undefined;
    const task =
      resumed ?? Task.create(environment.options, taskText!, { mode: choice.mode, modeSlug, taskId: session.sessionId!, ...(mentioned ? { mentioned } : {}) });
    // `--resume ID "message"`: the task goes on with the new instruction.
    if (resumed && taskText) task.addUserMessage(taskText, mentioned);
    if (jsonInput) {
      // Queued at once (a command file is expanded at once); behind an MCP prompt being fetched,
      // in the order they were sent.
      let pending: Promise<void> | undefined;
      const notSent = (error: unknown): void => {
        process.stderr.write(`${style.red(style.text(`Message not sent: ${(error as Error).message}`))}\n`);
      };
      /** Queues one message; a promise while an MCP prompt is fetched for it. */
      const deliver = (text: string): Promise<void> | undefined => {
        let message: string | Promise<string>;
        try {
          message = taskMessageText(text, commandSources);
        } catch (error) {
          notSent(error);
          return undefined;
        }
        if (typeof message === 'string') {
          task.queueUserMessage(message);
          return undefined;
        }
        return message.then((m) => void task.queueUserMessage(m), notSent);
      };
      jsonInput.onMessage = (text) => {
        const next = pending ? pending.then(() => deliver(text)) : deliver(text);
        if (!next) return;
        pending = next;
        void next.finally(() => {
          if (pending === next) pending = undefined;
        });
      };
    }
    const code = await runOnce(task, environment.options, options, reporter, style, lines, worktreePlace?.worktree);
    if (overlay) await writePatch(overlay, cwd, options.patchFile);
    return code;
  } finally {
    // Also when the run failed: the worktree is there, with whatever the task did.
    if (worktreePlace) printWorktreeEnd(worktreePlace, process.stderr, style);
    lines?.close();
    jsonInput?.close();
    await environment.dispose();
    await mcp.dispose();
  }
}

async function runOnce(
  first: Task,
  taskOptions: Parameters<typeof runTaskChain>[1],
  options: CliOptions,
  reporter: HumanReporter,
  style: Style,
  lines: LineSource | undefined,
  worktree?: TaskWorktree,
): Promise<number> {
  const started = Date.now();
  const follow = (task: Task) => {
    // The stream starts with what this run logged before it was followed (task_started, task_resumed…).
    if (options.output === 'stream-json')
      for (const event of eventsOfThisRun(task.log.events)) writeStreamJson(process.stdout, streamJsonLine(task.id, { type: 'event', event }));
    return task.onUpdate((update) => {
      reporter.handle(update);
      if (options.output === 'stream-json') writeStreamJson(process.stdout, streamJsonLine(task.id, update));
    });
  };
  follow(first);
  const session: CliSession = { task: first, start: first.state, running: false, quit: false };
  const commands = new SlashCommands(session, taskOptions, reporter, process.stderr, style);
  if (lines) {
    lines.commandHandler = async (line) => {
      if (!isSlashCommand(line)) return false;
      await commands.run(line);
      return true;
    };
  }
  let stopping = false;
  // Ctrl+C, SIGTERM and SIGHUP all stop the task the same way: its commands are killed and the summary is printed.
  const offSignals = onStopSignals((signal) => {
    if (stopping) process.exit(signalExitCode(signal));
    stopping = true;
    process.stderr.write(signal === 'SIGINT' ? '\nStopping… (press Ctrl+C again to quit at once)\n' : `\nStopping (${signal})…\n`);
    session.task?.abort();
  }, lines);
  let finished: TaskChainResult;
  try {
    finished = await runInteractive(first, taskOptions, session, { lines, commands, err: process.stderr, style }, follow);
  } finally {
    offSignals();
    if (lines) lines.commandHandler = undefined;
  }
  const { task, outcome } = finished;
  for (const text of task.queuedMessages) process.stderr.write(`${style.yellow(`Not delivered (the task stopped first): ${style.text(text)}`)}\n`);
  // Tokens, cost and steps of the whole chain, when the model handed over with new_task.
  const events = chainEvents(finished.tasks);
  if (options.output === 'json') {
    process.stdout.write(`${JSON.stringify({ ...jsonSummary(task.id, events, outcome, Date.now() - started), ...(worktree ? { worktree } : {}) })}\n`);
  } else if (options.output === 'stream-json') {
    writeStreamJson(process.stdout, { type: 'summary', ...jsonSummary(task.id, events, outcome, Date.now() - started), ...(worktree ? { worktree } : {}) });
  } else {
    printOutcome(outcome, task.id, style, options.quiet ? undefined : usageTotals(events));
  }
  return outcome.status === 'completed' ? 0 : 1;
}

/** Runs the CLI past --help and --version; sets the exit code and reports errors as one line. */
export function runCli(argv: readonly string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // A program reading --output json gets its one JSON object even when no task could start.
      const machine = SUBCOMMANDS.includes(argv[0] ?? '') || argv.includes('--list-models') ? undefined : machineOutputOf(argv);
      if (machine === 'json') process.stdout.write(`${JSON.stringify(failedStartSummary((error as Error).message))}\n`);
      else if (machine === 'stream-json') writeStreamJson(process.stdout, { type: 'summary', ...failedStartSummary((error as Error).message) });
      reportCliFailure(error);
    },
  );
}
