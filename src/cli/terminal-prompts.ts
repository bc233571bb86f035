import type { ApprovalAnswer, ApprovalPort, ApprovalRequest, QuestionPort } from '../core/ports.js';
import type { CommandPreview } from '../shared/command-preview-facts.js';
import type { LineSource } from './line-source.js';
import { renderPreview } from './preview-command.js';
import type { Style } from './style.js';

/** Asks approvals on the terminal: y approves, n rejects, any other text rejects with it as feedback. */
export class TerminalApprovals implements ApprovalPort {
  constructor(
    private readonly lines: LineSource | undefined,
    private readonly err: NodeJS.WritableStream,
    private readonly style: Style,
  ) {}

  /** Shows the request as the engine logged it in approval_asked (summary, reason, command, diff). */
  async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const out = this.err;
    const asker = request.subagent ? `[sub-agent ${request.subagent.index + 1}${request.subagent.name ? ` ${request.subagent.name}` : ''}] ` : '';
    out.write(`\n${this.style.bold(`? ${this.style.text(asker + request.summary)}`)}\n`);
    if (request.reason) out.write(`${this.style.yellow(`  ${this.style.text(request.reason)}`)}\n`);
    if (request.command) out.write(`  $ ${this.style.text(request.command)}\n`);
    if (request.diff) out.write(`${this.style.diff(request.diff)}\n`);
    // Nobody to answer: the call is refused, and the model is told why it was asked.
    const why = request.reason ? ` ${request.reason}` : '';
    // No input at all, or piped input that has ended: the prompt is not shown, as nobody could answer it.
    if (!this.lines || this.lines.exhausted) {
      const what = this.lines ? 'no input is left to answer it' : 'no terminal input to answer on';
      out.write(`  (${what}: rejected${request.reason ? '' : '; use --yes to approve tool calls'})\n`);
      return { approved: false, feedback: `The user could not be asked (non-interactive run), so it was not run.${why}` };
    }
    const lines = this.lines;
    const noAnswer: ApprovalAnswer = { approved: false, feedback: `No answer: input ended before the user approved, so it was not run.${why}` };
    let preview: CommandPreview | undefined;
    let answer: string;
    for (;;) {
      const line = await lines.reply(approvalPrompt(request, preview), signal);
      if (line === undefined) return noAnswer;
      answer = line.trim();
      if (request.preview && /^(p|preview)$/i.test(answer)) {
        out.write(`${this.style.dim('  Previewing on a copy of the workspace (no network)…')}\n`);
        preview = (await request.preview()).result;
        out.write(indent(renderPreview(preview, this.style, false)));
        continue;
      }
      if (preview && /^(d|diff)$/i.test(answer)) {
        out.write(indent(renderPreview(preview, this.style, true)));
        continue;
      }
      if (preview && /^(a|apply)$/i.test(answer)) {
        if (preview.ran && preview.unavailable === undefined && preview.notPreviewable.length === 0) return { approved: true, applyPreview: true };
        out.write(`${this.style.yellow('  Apply is not offered: the preview does not show everything the command would do.')}\n`);
        continue;
      }
      break;
    }
    if (/^(y|yes)$/i.test(answer)) return { approved: true };
    if (/^(n|no)?$/i.test(answer)) return { approved: false };
    const approvedWithNote = /^(?:y|yes)[,:]\s*(.+)$/i.exec(answer);
    if (approvedWithNote) return { approved: true, feedback: approvedWithNote[1]! };
    return { approved: false, feedback: answer };
  }
}

/** The approval question: with a preview offered, its choice; after a preview, Run for real, Apply and the diff. */
function approvalPrompt(request: ApprovalRequest, preview: CommandPreview | undefined): string {
  if (preview) {
    const apply = preview.ran && preview.unavailable === undefined && preview.notPreviewable.length === 0 ? ' / [a]pply preview' : '';
    return `Run for real? [y]es${apply} / [d]iff / [p]review again / [n]o / or type feedback to reject: `;
  }
  if (request.preview) return 'Approve? [y]es / [n]o / [p]review / or type feedback to reject: ';
  return 'Approve? [y]es / [n]o / or type feedback to reject: ';
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}

/** Asks the model's follow-up questions on the terminal; a number picks one of the options. */
export class TerminalQuestions implements QuestionPort {
  constructor(
    private readonly lines: LineSource | undefined,
    private readonly err: NodeJS.WritableStream,
    private readonly style: Style,
  ) {}

  async ask(question: string, options: readonly string[], signal: AbortSignal): Promise<string | undefined> {
    if (!this.lines) return undefined;
    // Piped input that has ended: printing the question would show a prompt nobody can answer.
    if (this.lines.exhausted) {
      this.err.write(`${this.style.dim('  (a question was asked; no input is left to answer it)')}\n`);
      return undefined;
    }
    this.err.write(`\n${this.style.bold(`? ${this.style.text(question)}`)}\n`);
    for (const [i, option] of options.entries()) this.err.write(`  ${i + 1}. ${this.style.text(option)}\n`);
    const line = await this.lines.reply('> ', signal);
    if (line === undefined) return undefined;
    const picked = Number(line.trim());
    return Number.isInteger(picked) && picked >= 1 && picked <= options.length ? options[picked - 1] : line;
  }
}
