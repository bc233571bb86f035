import { PROVIDER_IDS, PROVIDERS } from '../shared/providers.js';
import { WEB_FLAGS_HELP } from './web-flags.js';

/** The main help (`smith --help`); each subcommand has its own (command-help.ts). */
export const USAGE = `Usage: smith [options] [task]
       smith [options] --resume TASK_ID [message]
       smith mcp-serve [--cwd DIR] [provider options]   (Smith as an MCP server on stdio)
       smith mcp search|add|remove|list …               (MCP Registry servers and your MCP settings)
       smith acp [provider and approval options]        (Smith as an ACP agent for Zed, JetBrains, Neovim)
       smith checkpoints TASK_ID [--output json]         (a task's checkpoints)
       smith rewind TASK_ID CHECKPOINT_ID [--files-only | --conversation-only] [--force]
       smith models refresh [URL | FILE]                 (fetch a model catalogue: newer models' facts)
       smith replay TASK_ID [--model ID] [--provider NAME] [--mode NAME] [--rules FILE] [--output json]
       smith replay --batch FILE [--concurrency N]   (run stored tasks again in a scratch copy; compare)
       smith bisect TASK_ID --test COMMAND [--timeout SECONDS] [--linear] [--output json]
                                                 (the step after which a task's test fails)
       smith import [PATH | SESSION_ID] [--from AGENT] [--cwd DIR]   (a Claude Code, Cline or Roo Code session as a task)
       smith worktree list | diff NAME | merge NAME [--squash] | pr NAME | discard NAME [--force]
       smith preview-command [--cwd DIR] [--patch] [--timeout S] -- CMD…   (what CMD would change, run on a copy)
       smith commit-message [--staged | --all] [--profile NAME] [provider options]   (a commit message for your changes)

Runs one task when a task is given (or piped on stdin); with no task on a terminal, starts a REPL.

Options:
  --cwd DIR                  workspace folder (default: the current folder)
  --worktree [NAME]          run the task in a new git worktree on the branch smith/NAME (NAME
                             from the task when not given; --worktree=NAME is unambiguous),
                             outside the workspace; its branch and folder are printed at the end
  --worktree-base BRANCH     the local branch the worktree starts from and merges back into
                             (default: the branch checked out); an unknown branch is refused
  --add-dir DIR              another workspace folder (repeatable); inside the workspace like
                             --cwd, its files addressed as <folder name>/path
  --skill-dir DIR            a folder of Agent Skills (<DIR>/<name>/SKILL.md) for this run
                             (repeatable); its skills come before the usual folders'
  --provider NAME            ${PROVIDER_IDS.join(' | ')}
  --profile NAME             an API profile from "profiles" in <storage>/settings.json (or
                             SMITH_PROFILE); the flags win over its fields
  --plan-profile NAME        the API profile Plan mode runs with (provider, model, key), e.g. a
                             stronger model to plan and a cheaper one to act; also "planProfile"
                             in <storage>/settings.json
  --act-profile NAME         the API profile Act mode runs with; also "actProfile" there
  --model ID                 model id (required for openai-compatible)
  --base-url URL             API base URL (e.g. http://127.0.0.1:11434/v1 for Ollama)
  --reasoning-effort LEVEL   low | medium | high: extended thinking where the model supports it
  --tool-protocol xml|native how the model calls tools: XML blocks in its text (default, any
                             model) or the vendor's native tool calling
  --openai-api API           chat-completions | responses: the OpenAI API to speak (OpenAI, Azure,
                             compatible servers); default: the Responses API for the models only
                             it serves (the Codex models), else Chat Completions
  --context-window N         the model's context window in tokens (for openai-compatible models)
  --vision                   the model takes images (for models the catalogue does not know)
  --image FILE               send an image (PNG, JPEG, GIF or WebP, up to 5 MB) with the task or
                             the --resume message; repeatable; needs a model that takes images
  --input-price USD          price per million input tokens (for cost; openai-compatible)
  --output-price USD         price per million output tokens
  --idle-timeout SECONDS     give up on a model request that receives nothing for this long
                             (before the response starts or mid-stream) and retry it
                             (default 60; 0 turns it off)
  --yes                      approve every tool call inside the workspace
  --auto-approve LIST        approve only these without asking, comma-separated:
                             read, edit, safe-commands, commands, mcp, browser (default: read)
  --allow-outside-workspace  also auto-approve paths outside the workspace
  --max-subagents N          sub-agents the model may run at once with use_subagents (default 3)
  --max-auto-approvals N     after N calls in a row approved without asking, ask once anyway
                             (counted over the task's log, so a resumed task goes on counting)
  --plan, --act              start in Plan mode (read and discuss) or Act mode (default)
  --mode NAME                the mode: code (default), architect, ask, orchestrator, or your own
                             (.smith/modes); --skill NAME is the older spelling
  --output human|json|stream-json
                             human progress on stderr (default), one JSON object on stdout, or
                             one JSON object per line as things happen (see the README)
${WEB_FLAGS_HELP}
  --allow RULE, --deny RULE, --ask RULE
                             permission rules, repeatable: Bash(npm test), Bash(git diff:*),
                             Edit(src/**), Read(./.env), mcp__github__create_issue; deny always
                             wins, also over --yes (see docs/permissions.md)
  --sandbox                  run every command under bubblewrap: the workspace writable (but for
                             git hooks and config, .smith, .claude, .vscode, .husky), the rest
                             read-only, a private /tmp, no network, no Unix sockets, .smithignore'd
                             paths hidden; without bubblewrap every command is asked for
  --sandbox-network          let sandboxed commands use the network
  --sandbox-allow-host HOST  let sandboxed commands reach this host only (repeatable; *.example.com
                             for its subdomains), through a proxy for HTTP(S)_PROXY-aware tools
  --dry-run                  write no file: the edits are printed as one unified diff on stdout
                             (or to --patch-file FILE); commands are not run
  --patch-file FILE          where --dry-run writes its patch
  --input text|stream-json   answer approvals and questions on stdin as text (default), or as
                             JSON lines, which may also send messages (see the README)
  --max-iterations N         stop after N model requests (default 25); on a terminal, Smith asks
                             whether to go on for another N
  --max-repeats N            after N identical tool calls in a row (or N failing the same way)
                             the model is told to change course; one more and Smith asks
                             whether to let it go on (no one to ask: the task stops); default 3,
                             0 turns it off
  --preview-timeout S        seconds a command preview ([p]review at an approval) may run
                             before it is stopped (default 30)
  --max-cost USD             stop when the task, its sub-agents and its new_task hand-overs have
                             cost this much together; needs the model's prices (an error without
                             them); on a terminal, Smith asks whether to go on for another USD
  --auto-condense PERCENT|TOKENS
                             condense the history when a request fills this share of the model's
                             context window ("60%" or 60; default 80), or holds this many tokens
                             (120000 or 120k: a fixed size, whatever the window); large old tool
                             results are shortened first
  --condense-model ID        write the summaries with this model (same provider) instead of the
                             task's own; --condense-profile NAME: with an API profile's
  --storage DIR              where task logs are kept (default: a per-user folder)
  --mcp-config FILE          an extra MCP servers file ({"mcpServers": {...}}), besides
                             <storage>/mcp_settings.json and .smith/mcp.json
  --trust-workspace          start the servers of this workspace's .smith/mcp.json, use its
                             .smith/settings.json allow rules and hooks, and offer its skills,
                             without asking (otherwise smith asks once on a terminal, or skips them)
  --resume TASK_ID [message] continue a stored task from its log: where it stopped, or (finished
                             or not) with a new message
  --no-checkpoints           take no checkpoints of the workspace (they are kept in the storage
                             folder, after every step that changed files; see smith checkpoints)
  --verbose                  show tool output and reasoning
  --quiet                    print only the result
  --list-models              print the provider's models (from the endpoint's /models, or the catalogue) and exit
  -h, --help                 show this help
  -v, --version              print the version

API keys come from ${PROVIDERS.filter((p) => p.keyEnvVar !== '')
  .map((p) => (p.id === 'openai-compatible' ? `${p.keyEnvVar} (${p.id})` : p.keyEnvVar))
  .join(', ')}.`;
