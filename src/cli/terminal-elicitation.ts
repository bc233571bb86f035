import type { McpElicitationAnswer, McpElicitationRequest, McpElicitor } from '../core/mcp/mcp-elicitation.js';
import { checkElicitationContent, readElicitationInput, type ElicitationField, type ElicitationValue } from '../shared/elicitation-form.js';
import type { LineSource } from './line-source.js';
import type { Style } from './style.js';

/**
 * Asks a server's form on the terminal, one field at a time, one form at a time. `--yes` does not
 * answer it: a form asks the user for data, not for permission. Input that ends cancels the form.
 */
export function terminalElicitor(lines: LineSource, err: NodeJS.WritableStream, style: Style): McpElicitor {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const turn = queue.then(() => (signal.aborted ? ({ action: 'cancel' } as const) : askForm(request, signal, lines, err, style)));
    queue = turn.catch(() => {});
    return turn.catch((error: unknown) => {
      // The form timed out or the server withdrew it while a field was being typed.
      if (signal.aborted) {
        err.write(
          `\n${style.yellow(`The form of MCP server "${style.text(request.server)}" was withdrawn (${style.text(String((signal.reason as Error | undefined)?.message ?? 'cancelled'))}).`)}\n`,
        );
        return { action: 'cancel' } as const;
      }
      throw error;
    });
  };
}

/** Declines every form and says so on stderr: a run without a terminal to ask on (piped input, --output json, stream-json). */
export function decliningElicitor(warn: (message: string) => void, why: string): McpElicitor {
  return async (request) => {
    warn(`MCP server "${request.server}" asked for input ("${oneLine(request.message)}"); declined: ${why}.`);
    return { action: 'decline' };
  };
}

async function askForm(
  request: McpElicitationRequest,
  signal: AbortSignal,
  lines: LineSource,
  err: NodeJS.WritableStream,
  style: Style,
): Promise<McpElicitationAnswer> {
  const seconds = Math.max(1, Math.round((request.expiresAt - Date.now()) / 1000));
  err.write(`\n${style.bold(`? MCP server "${style.text(request.server)}" asks for input:`)}\n${style.text(request.message)}\n`);
  err.write(
    `${style.dim(`${request.fields.length} field${request.fields.length === 1 ? '' : 's'}; the form is cancelled after ${seconds} s without an answer.`)}\n`,
  );
  const start = await lines.next('Fill it in? [y]es / [d]ecline / [c]ancel: ', signal, { fresh: lines.terminal });
  if (start === undefined) return { action: 'cancel' };
  if (/^(d|decline|n|no)$/i.test(start.trim())) return { action: 'decline' };
  if (!/^(y|yes)?$/i.test(start.trim())) return { action: 'cancel' };
  err.write(`${style.dim('Enter keeps the default shown in brackets (or leaves an optional field empty); /decline or /cancel stops.')}\n`);
  const content: Record<string, ElicitationValue> = {};
  for (const field of request.fields) {
    if (field.description) err.write(`${style.dim(style.text(field.description))}\n`);
    if (field.kind === 'choice' || field.kind === 'multi') {
      field.options.forEach((option, i) => {
        err.write(`  ${i + 1}. ${style.text(option.label)}${option.label !== option.value ? style.dim(` (${style.text(option.value)})`) : ''}\n`);
      });
    }
    for (;;) {
      const line = await lines.next(`${style.text(`${field.label}${hint(field)}`)}: `, signal, { fresh: lines.terminal });
      if (line === undefined || line.trim() === '/cancel') return { action: 'cancel' };
      if (line.trim() === '/decline') return { action: 'decline' };
      const read = readElicitationInput(field, line);
      if ('error' in read) {
        err.write(`${style.red(`  ${read.error}`)}\n`);
        continue;
      }
      const value = read.value ?? field.default;
      const check = checkElicitationContent([field], value === undefined ? {} : { [field.name]: value });
      if (!check.ok) {
        err.write(`${style.red(`  ${check.errors[field.name] ?? Object.values(check.errors)[0]}`)}\n`);
        continue;
      }
      if (value !== undefined) content[field.name] = value;
      break;
    }
  }
  return { action: 'accept', content };
}

/** What a field takes, and its default: " (integer 1–100) [42]". */
function hint(field: ElicitationField): string {
  const parts: string[] = [];
  switch (field.kind) {
    case 'text':
      if (field.format) parts.push(field.format);
      break;
    case 'number': {
      const range = field.minimum !== undefined || field.maximum !== undefined ? ` ${field.minimum ?? ''}–${field.maximum ?? ''}` : '';
      parts.push(`${field.integer ? 'integer' : 'number'}${range}`);
      break;
    }
    case 'boolean':
      parts.push('y/n');
      break;
    case 'choice':
      parts.push('number or value');
      break;
    case 'multi':
      parts.push('numbers or values, comma-separated');
      break;
  }
  if (!field.required) parts.push('optional');
  const fallback = field.default === undefined ? '' : ` [${Array.isArray(field.default) ? field.default.join(', ') : String(field.default)}]`;
  return `${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${fallback}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
