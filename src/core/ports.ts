import type { CommandPreview } from '../shared/command-preview-facts.js';
import type { ShownApproval } from '../shared/tool-details.js';

/**
 * The host interface: the only way the engine reaches the editor, terminal, user and clock.
 * The CLI and the VS Code extension each implement it.
 */
export interface Host {
  readonly files: FileSystemPort;
  readonly approvals: ApprovalPort;
  readonly questions: QuestionPort;
  readonly clock: Clock;
  /** Runs shell commands (a child process in the CLI; the integrated terminal in VS Code). */
  readonly processes: ProcessPort;
  /** The ripgrep binary to use: VS Code ships one; the CLI looks for `rg` on PATH. Undefined when none exists. */
  ripgrepPath(): Promise<string | undefined>;
  /** Short notices for the user (warnings, retries); never required for correctness. */
  notify(level: 'info' | 'warning' | 'error', message: string): void;
  /**
   * Errors the editor's language services report for a file after an edit was written that it
   * did not have before, one line each. Optional: only hosts with language servers have them.
   */
  diagnosticsAfterEdit?(absolutePath: string): Promise<readonly string[]>;
  /** Edits notebooks through the editor's notebook documents (VS Code); absent: notebook edits write the file. */
  readonly notebooks?: NotebookPort;
}

/** A Jupyter cell as an editor's notebook holds it. */
export interface NotebookCellContent {
  readonly cellType: 'code' | 'markdown' | 'raw';
  /** Without a final newline, as Jupyter saves it. */
  readonly source: string;
  /** The language of a code cell (the notebook's, from its metadata). */
  readonly language: string;
  /** The cell's id (nbformat 4.5 and later); absent in older notebooks. */
  readonly id?: string;
  /** The cell's own Jupyter metadata, kept as it was. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Attachments of a markdown or raw cell, kept as they were. */
  readonly attachments?: Readonly<Record<string, unknown>>;
}

/** One change to a notebook's cells, addressed by index in the notebook as it is on disk. */
export type NotebookCellEdit =
  | { readonly kind: 'replace'; readonly index: number; readonly cell: NotebookCellContent }
  | { readonly kind: 'insert'; readonly index: number; readonly cell: NotebookCellContent }
  | { readonly kind: 'delete'; readonly index: number };

/** A cell as the edit expects to find it (type and source), so an editor holding other cells is not edited blindly. */
export interface ExpectedCell {
  readonly cellType: 'code' | 'markdown' | 'raw';
  readonly source: string;
}

/** Cell edits through the editor's own notebook, so the user sees them there and can undo them. */
export interface NotebookPort {
  /**
   * Applies the edit to the file's notebook document (opened when it is not) and saves it.
   * Returns false when this editor has no Jupyter notebook support (the caller writes the file
   * itself); throws with the reason when the document does not hold `expected` (unsaved changes)
   * or the editor refused the edit or the save.
   */
  applyCellEdit(absolutePath: string, edit: NotebookCellEdit, expected: readonly ExpectedCell[]): Promise<boolean>;
}

/** What a path names, following symlinks; only a `file` may be read. */
export interface FileInfo {
  readonly type: 'file' | 'directory' | 'fifo' | 'socket' | 'device' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
}

/** Options of a chunked read. */
export interface ReadChunksOptions {
  readonly signal?: AbortSignal;
  /** Largest chunk to hand out, in bytes. */
  readonly chunkSize?: number;
}

/** Plain-path file access; the VS Code host may see unsaved editor contents. */
export interface FileSystemPort {
  readFile(absolutePath: string): Promise<Uint8Array>;
  /** The path's type, size and modification time, or undefined when nothing is there. */
  stat(absolutePath: string): Promise<FileInfo | undefined>;
  /**
   * Reads a regular file front to back in chunks, so a caller can stop early and never holds more
   * than it keeps. Throws at once for anything but a regular file (never waits on a FIFO), and
   * with the signal's reason when it is aborted.
   */
  readChunks(absolutePath: string, options?: ReadChunksOptions): AsyncIterable<Uint8Array>;
  /** Writes through a temporary file and a rename, creating parent folders. */
  writeFileAtomic(absolutePath: string, data: string | Uint8Array): Promise<void>;
  exists(absolutePath: string): Promise<boolean>;
  deleteFile(absolutePath: string): Promise<void>;
}

/**
 * A question for the user about one tool call: what is shown (logged as is in `approval_asked`)
 * plus, for an edit, the whole texts for a diff editor (not logged).
 */
export interface ApprovalRequest extends ShownApproval {
  /** For edits: the file's text before and the proposed text after, for a diff view. */
  readonly proposal?: { readonly original: string; readonly proposed: string; readonly isNewFile: boolean };
  /**
   * For commands: runs the command on a copy of the workspace (docs/command-preview.md) and says
   * what it would change; a later preview replaces the earlier one. Absent where none is offered.
   */
  readonly preview?: () => Promise<PreviewShown>;
}

/** A command preview as a host shows it: its facts, and each changed path's two sides as files for a diff editor. */
export interface PreviewShown {
  readonly result: CommandPreview;
  /** Files holding a path's content before and after (an empty file for a side that does not exist); valid until the approval is answered. */
  sides(path: string): { readonly before: string; readonly after: string };
}

/** The user's answer; feedback text goes back to the model either way. */
export type ApprovalAnswer =
  /** `applyPreview`: write the last preview's file changes instead of running the command. */
  | { readonly approved: true; readonly feedback?: string; readonly editedContent?: string; readonly applyPreview?: true }
  | { readonly approved: false; readonly feedback?: string };

export interface ApprovalPort {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

/** Follow-up questions from the model to the user. */
export interface QuestionPort {
  /** Returns the user's answer, or undefined when no user can answer (headless runs). */
  ask(question: string, options: readonly string[], signal: AbortSignal): Promise<string | undefined>;
}

export interface Clock {
  now(): number;
}

/** How to start a command. */
export interface ProcessStartOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The SMITH_COMMAND_ID value for the command's processes (command-marker.ts), chosen by the
   * caller so it can log it before any process exists; the port makes one when absent. A command
   * run in a terminal the port reuses carries that terminal's marker instead (see RunningProcess).
   */
  readonly marker?: string;
}

/** Starts shell commands; output streams as it comes. */
export interface ProcessPort {
  start(command: string, options: ProcessStartOptions): RunningProcess;
  /**
   * A port for one task, where what a port keeps between commands (an idle terminal) is reused
   * only by that task's commands, never another task's. Absent: the port keeps nothing between commands.
   */
  forTask?(): ProcessPort;
}

/** A started command. */
export interface RunningProcess {
  /** Output (stdout and stderr interleaved as they arrive). */
  onOutput(listener: (chunk: string) => void): void;
  /**
   * How stdout and stderr reach onOutput: 'merged' when both share one pipe or a terminal (in the
   * order printed, but not told apart), 'separate' when read from two pipes (their relative order
   * may be lost). Absent when unknown.
   */
  readonly streams?: 'merged' | 'separate';
  /** Settles when the process has exited; exitCode is null when it was killed by a signal. */
  readonly exited: Promise<{ readonly exitCode: number | null; readonly signal?: string }>;
  /** The OS process id of the command's shell, when known (logged so a resumed task can find survivors). */
  readonly pid?: number;
  /** The value added to every process of this command's SMITH_COMMAND_ID variable (see command-marker.ts). */
  readonly marker?: string;
  /** Ends the command and everything it started (the whole process tree, including processes that left it with setsid or nohup). */
  kill(): Promise<void>;
  /** What the finished kill() checked afterwards; absent before that, or when the host cannot check. */
  readonly killReport?: KillReport;
}

/** What a kill verified afterwards. */
export interface KillReport {
  /** False where the host could not look for the command's processes (no /proc): nothing is known. */
  readonly checked: boolean;
  /** Processes of the command still alive after the kill (pids); empty when all are gone or not checked. */
  readonly survivors: readonly number[];
}
