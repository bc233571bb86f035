import { join } from 'node:path';
import { languageForPath, supportedExtensions, type CodeLanguage } from '../code/code-languages.js';
import { formatDefinitions } from '../code/definition-format.js';
import { extractDefinitions } from '../code/definition-extractor.js';
import { listSourceFiles, pathKind } from '../code/source-files.js';
import { withheldNote, type WithheldFile } from '../workspace/read-guard.js';
import { decodeText } from '../tool-kit/file-text.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';
import { builtInSpec, mistake, type ToolContext, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';

/** Files outlined per call in folder mode (Cline's cap): enough for an overview, bounded in tokens. */
export const MAX_OUTLINED_FILES = 50;

/** Bigger files are skipped: they are almost always generated or minified, and slow to parse. */
const MAX_SOURCE_BYTES = 1_000_000;

type FileOutline =
  | { readonly kind: 'definitions'; readonly text: string; readonly count: number }
  | { readonly kind: 'none' }
  | { readonly kind: 'skipped'; readonly reason: string };

const languageNames = 'TypeScript, TSX, JavaScript, Python, Go, Rust, Java, C, C++, C#, Ruby and PHP';

/** list_code_definition_names: the classes, functions, methods, types… of a source file or of the files in a folder. */
export const listCodeDefinitionNamesTool: ToolHandler = {
  spec: builtInSpec({
    name: 'list_code_definition_names',
    description: `List the definitions (classes, functions, methods, interfaces, types, structs, enums, traits, modules) in a source file, or in each source file directly inside a folder (subfolders are not included; at most ${MAX_OUTLINED_FILES} files). Each definition is shown as its line of code, giving an overview of how the code is organised before reading it. Supports ${languageNames}.`,
    params: [{ name: 'path', required: true, description: 'Path of a source file or of a folder, relative to the workspace.' }],
    example: '<list_code_definition_names>\n<path>src</path>\n</list_code_definition_names>',
  }),
  async execute(params, context) {
    const target = resolveToolPath(context, params.path!);
    if (isOutcome(target)) return target;
    const kind = await pathKind(target.absolute);
    if (!kind) return mistake(`Path not found: ${target.display}. Check the path (use list_files to see what exists).`);
    const language = languageForPath(target.absolute);
    if (kind === 'file' && !language) {
      return mistake(
        `Cannot list definitions in ${target.display}: its file type is not supported. Supported extensions: ${supportedExtensions().join(', ')}. Use read_file to read it.`,
      );
    }
    const request = { summary: `List code definitions in ${target.display}`, path: target.display };
    const answer = await context.approve(request, target.insideWorkspace ? undefined : { outsideWorkspace: true });
    if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
    return kind === 'file' && language
      ? outlineSingleFile(context, target.absolute, target.display, language)
      : outlineFolder(context, target.absolute, target.display);
  },
};

async function outlineSingleFile(context: ToolContext, absolute: string, display: string, language: CodeLanguage): Promise<ToolOutcome> {
  const outline = await outlineFile(context, absolute, display, language);
  if (outline.kind === 'skipped') return { kind: 'error', error: `Skipped ${display}: ${outline.reason}.`, mistake: false };
  const count = outline.kind === 'definitions' ? outline.count : 0;
  const details = { outline: { path: display, files: 1, definitions: count, skipped: 0 } };
  if (outline.kind === 'none') return { kind: 'result', output: `No source code definitions found in ${display}.`, details };
  return { kind: 'result', output: outline.text, details };
}

async function outlineFolder(context: ToolContext, absolute: string, display: string): Promise<ToolOutcome> {
  const listing = await listSourceFiles(absolute, context.ignore, MAX_OUTLINED_FILES);
  if (listing.total === 0) {
    return {
      kind: 'result',
      output: `No source files of a supported language directly in ${display} (subfolders are not searched; name one to outline it). Supported extensions: ${supportedExtensions().join(', ')}.`,
      details: { outline: { path: display, files: 0, definitions: 0, skipped: 0 } },
    };
  }
  const blocks: string[] = [];
  const notes: string[] = [];
  const withheld: WithheldFile[] = [];
  let definitions = 0;
  let skipped = listing.total - listing.files.length;
  for (const file of listing.files) {
    context.signal.throwIfAborted();
    const fileDisplay = display === '.' ? file.name : `${display}/${file.name}`;
    // A definition's line is the file's content: a file the Read rules withhold is named, not outlined.
    const refusal = context.readGuard?.refusal(join(absolute, file.name), 'list_code_definition_names');
    if (refusal) {
      withheld.push({ display: fileDisplay, refusal });
      skipped++;
      continue;
    }
    const outline = await outlineFile(context, join(absolute, file.name), fileDisplay, file.language);
    if (outline.kind === 'definitions') {
      blocks.push(outline.text);
      definitions += outline.count;
    } else if (outline.kind === 'skipped') {
      notes.push(`[Skipped ${fileDisplay}: ${outline.reason}.]`);
      skipped++;
    }
  }
  if (listing.total > listing.files.length) {
    notes.push(`[Outlined the first ${listing.files.length} of ${listing.total} source files in ${display}; name a file to outline one of the others.]`);
  }
  if (withheld.length > 0) notes.push(withheldNote(withheld));
  if (blocks.length === 0) {
    const count = listing.files.length === 1 ? '1 source file' : `${listing.files.length} source files`;
    notes.unshift(`No source code definitions found in the ${count} directly in ${display}.`);
  }
  const beyondLimit = listing.total - listing.files.length;
  const details = { outline: { path: display, files: listing.files.length - (skipped - beyondLimit), definitions, skipped } };
  return { kind: 'result', output: [...blocks, ...notes].join('\n').trimEnd(), details };
}

function tooLarge(size: number): FileOutline {
  return { kind: 'skipped', reason: `too large to parse (${size} bytes, limit ${MAX_SOURCE_BYTES}); use read_file with a line range` };
}

async function outlineFile(context: ToolContext, absolute: string, display: string, language: CodeLanguage): Promise<FileOutline> {
  let bytes: Uint8Array;
  try {
    // Stat first: a FIFO or device would block or never end, and a huge file is not read at all.
    const info = await context.host.files.stat(absolute);
    if (info && info.type !== 'file') return { kind: 'skipped', reason: `it is a ${info.type}, not a regular file` };
    if (info && info.size > MAX_SOURCE_BYTES) return tooLarge(info.size);
    bytes = await context.host.files.readFile(absolute);
  } catch (error) {
    return { kind: 'skipped', reason: `cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
  if (bytes.length > MAX_SOURCE_BYTES) return tooLarge(bytes.length);
  const decoded = decodeText(bytes);
  if ('binary' in decoded) return { kind: 'skipped', reason: 'it is a binary file, not source text' };
  const source = decoded.text.replace(/^\uFEFF/, '');
  const definitions = await extractDefinitions(source, language);
  return definitions.length === 0
    ? { kind: 'none' }
    : { kind: 'definitions', text: formatDefinitions(display, source, definitions), count: definitions.length };
}
