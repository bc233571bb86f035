/** A piece of an assistant message, as produced by the streaming tool-block parser. */
export type AssistantBlock = TextBlock | ThinkingBlock | ToolUseBlock;

/** Plain answer text between tool blocks. */
interface TextBlock {
  readonly kind: 'text';
  readonly text: string;
  /** True while the stream may still extend this block. */
  readonly partial: boolean;
}

/** Text inside <thinking>…</thinking>, kept apart from the answer. */
interface ThinkingBlock {
  readonly kind: 'thinking';
  readonly text: string;
  readonly partial: boolean;
}

/** A tool call: an XML block such as <read_file><path>a.ts</path></read_file>, or a native call. */
export interface ToolUseBlock {
  readonly kind: 'tool';
  readonly name: string;
  /** Parameter values; while partial, the last one may be incomplete. */
  readonly params: Readonly<Record<string, string>>;
  readonly partial: boolean;
  /** The vendor's id of a native tool call; XML blocks have none. */
  readonly id?: string;
  /** Why a native call's arguments could not be read as parameters (then `params` is empty). */
  readonly argumentsError?: string;
  /** Opaque token the vendor wants back with this call (Gemini's thought signature). */
  readonly signature?: string;
}

/** What the parser must know about the tools so that unknown tags stay text. */
export interface ToolGrammar {
  /** Tool name → its parameter names. */
  readonly tools: ReadonlyMap<string, readonly string[]>;
}
