import type { ApprovalAnswer, ApprovalRequest, FileSystemPort, Host, ProcessPort } from '../../src/core/ports.js';
import { isAutoApproved, type AutoApprovePolicy, DEFAULT_POLICY } from '../../src/core/log/approval-policy.js';
import type { FileVersions } from '../../src/core/log/file-stamp.js';
import { FileStampRecord } from '../../src/core/tool-kit/file-stamping.js';
import type { ToolContext, ToolHandler, ToolOutcome } from '../../src/core/tool-kit/tool-spec.js';
import { NOTHING_IGNORED, type IgnorePolicy } from '../../src/core/workspace/ignore-policy.js';
import { NodeFileSystem } from '../../src/core/workspace/node-file-system.js';
import type { WorkspaceRoots } from '../../src/core/workspace/workspace-roots.js';

/** Runs one tool handler against real files, answering approvals from a scripted list. */
export class ToolHarness {
  readonly asked: ApprovalRequest[] = [];
  readonly progress: string[] = [];
  answers: ApprovalAnswer[] = [];
  /** Runs while an approval is pending, before it is answered (plays what the user does meanwhile). */
  whileAsking: ((request: ApprovalRequest) => void) | undefined;
  questionAnswer: string | undefined;
  policy: AutoApprovePolicy = DEFAULT_POLICY;
  ignore: IgnorePolicy = NOTHING_IGNORED;
  /** All folders of a multi-root workspace (unset: `cwd` alone). */
  workspace: WorkspaceRoots | undefined;
  processes: ProcessPort = {
    start: () => {
      throw new Error('this harness has no process runner; set harness.processes');
    },
  };
  ripgrep: string | undefined = undefined;
  /** What earlier runs read and wrote, as a task's log would remember it. */
  readonly stamps = new FileStampRecord();
  readonly host: Host;
  /** Whether the tools may answer with images, as for a vision model. */
  modelSupportsImages = false;
  /** Where read and written contents are kept for merging edits (unset: edits of changed files are refused). */
  fileVersions: FileVersions | undefined;
  /** The commands the tools logged as starting (`commandStarted`), in order. */
  readonly commandsStarted: { readonly command: string; readonly marker: string }[] = [];
  /** The follow-up questions asked (with their options), in order. */
  readonly questions: { readonly question: string; readonly options: readonly string[] }[] = [];

  /** `files` replaces the real file system, e.g. with a double that counts what is read. */
  constructor(
    readonly cwd: string,
    files: FileSystemPort = new NodeFileSystem(),
  ) {
    this.host = {
      files,
      approvals: {
        ask: async (request) => {
          this.asked.push(request);
          this.whileAsking?.(request);
          const answer = this.answers.shift();
          if (!answer) throw new Error(`unexpected approval request: ${request.summary}`);
          return answer;
        },
      },
      questions: {
        ask: async (question, options) => {
          this.questions.push({ question, options });
          return this.questionAnswer;
        },
      },
      clock: { now: () => 1_700_000_000_000 },
      processes: { start: (command, options) => this.processes.start(command, options) },
      ripgrepPath: async () => this.ripgrep,
      notify: () => {},
    };
  }

  /** `detach` plays the user's "proceed while running". */
  async run(tool: ToolHandler, params: Record<string, string>, signal = new AbortController().signal, detach?: AbortSignal): Promise<ToolOutcome> {
    const context: ToolContext = {
      host: this.host,
      cwd: this.cwd,
      taskId: 'harness-task',
      ...(this.workspace ? { workspace: this.workspace } : {}),
      signal,
      ...(detach ? { detach } : {}),
      callId: 'call-1',
      ignore: this.ignore,
      ...(this.modelSupportsImages ? { modelSupportsImages: true } : {}),
      knownFile: this.stamps.get,
      ...(this.fileVersions ? { fileVersions: this.fileVersions } : {}),
      wouldAutoApprove: (facts = {}) => isAutoApproved(this.policy, { group: tool.spec.group, ...facts }),
      progress: (text) => this.progress.push(text),
      commandStarted: (started) => this.commandsStarted.push(started),
      approve: async (request, facts = {}) => {
        if (isAutoApproved(this.policy, { group: tool.spec.group, ...facts })) return { approved: true };
        return this.host.approvals.ask({ ...request, callId: 'call-1', tool: tool.spec.name }, signal);
      },
    };
    const outcome = await tool.execute(params, context);
    this.stamps.observe(outcome);
    return outcome;
  }
}
