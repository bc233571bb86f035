// A task's log is a list of these events (docs/architecture.md); each kind is declared with its subject beside this file.
import type {
  TaskStarted,
  UserMessage,
  RequestStarted,
  ModelResponse,
  ResponseInterrupted,
  RequestRetried,
  NoToolUsed,
  TaskResumed,
  TaskError,
  TaskCompleted,
  TaskAborted,
  NewTaskRequested,
  ModeSwitched,
  ModeSlugSwitched,
  SkillLoaded,
  TodoListEdited,
} from './conversation-events.js';
import type {
  ToolRequested,
  ApprovalAsked,
  ApprovalAnswered,
  ToolAutoApproved,
  ToolResult,
  ToolError,
  CommandStarted,
  CommandPreviewed,
  SubagentStarted,
  HooksRan,
  LoopDetected,
} from './tool-events.js';
import type { HistoryCondensed, CondenseFailed, HistoryTruncated, ToolResultsShortened, ContextMeasured } from './context-events.js';
import type { CheckpointCreated, ConversationRewound } from './checkpoint-events.js';

/** Every fact of a task, appended to its log and never changed. */
export type TaskEvent =
  | TaskStarted
  | UserMessage
  | RequestStarted
  | ModelResponse
  | ToolRequested
  | ApprovalAsked
  | ApprovalAnswered
  | ToolResult
  | ToolError
  | CommandStarted
  | CommandPreviewed
  | SubagentStarted
  | NoToolUsed
  | TaskResumed
  | TaskError
  | TaskCompleted
  | TaskAborted
  | ModeSwitched
  | ModeSlugSwitched
  | SkillLoaded
  | HistoryCondensed
  | CondenseFailed
  | HistoryTruncated
  | ResponseInterrupted
  | RequestRetried
  | NewTaskRequested
  | CheckpointCreated
  | ConversationRewound
  | TodoListEdited
  | ContextMeasured
  | HooksRan
  | ToolAutoApproved
  | ToolResultsShortened
  | LoopDetected;

/** An event before the log assigns its position and time. */
export type NewEvent = TaskEvent extends infer E ? (E extends TaskEvent ? Omit<E, 'seq' | 'ts'> : never) : never;
