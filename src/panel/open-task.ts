import type { StreamingMessage } from './streaming-message.js';
import type { TaskEnvironment } from '../core/session/task-environment.js';
import type { PlanAct } from '../shared/plan-act.js';
import type { TaskEvent } from '../core/log/events.js';
import type { Task, TaskOutcome } from '../core/task/task.js';
import type { UiProjectionState } from '../core/task/ui-projection.js';
import type { TaskView } from '../shared/protocol.js';
import { readStoredTaskTolerantly } from '../core/log/task-log.js';
import { newestPage, type HeldChat } from './chat-window.js';
import { runStatus } from './panel-state.js';
import { factsOfEvents, type TaskFacts } from './task-facts.js';
import type { TaskAsks, WebviewInteractions } from './webview-interactions.js';
import type { HeldWorktree } from './task-worktrees.js';

/**
 * The task open in the panel: live (a Task) or only viewed until the user acts. `messages` holds
 * the whole chat of a task that was live here; of a stored task opened from the history, only the
 * newest messages (`messagesFrom` is the index of the first), older pages read from its log as
 * the webview asks for them (HeldChat).
 */
export interface OpenTask extends HeldChat {
  readonly id: string;
  task?: Task;
  environment?: TaskEnvironment;
  /** The approval and question ports of its environment (its own channel of the panel's interactions). */
  asks?: TaskAsks;
  /** The git worktree it runs in, when it was started in one of its own (its environments are built there). */
  worktree?: HeldWorktree & { readonly workspace: string };
  unsubscribe?: () => void;
  /** A viewed task's events, when they are in memory (it was live here, or something needed them all). */
  viewedEvents?: readonly TaskEvent[];
  /** A stored task viewed from its log: what the panel shows of it besides the messages. */
  stored?: { readonly facts: TaskFacts; readonly storageDir: string };
  run?: Promise<TaskOutcome>;
  /** The live task's chat, folded event by event as its log grows. */
  ui?: UiProjectionState;
  /** The assistant message streaming now, built by appending the task's deltas. */
  streaming?: StreamingMessage;
  /** Plan/Act or mode chosen while the task was only viewed, applied when it goes live. */
  pendingMode?: PlanAct;
  pendingModeSlug?: string;
  /** The last usage, todo list and context figures sent alone (JSON), so an unchanged one is not resent. */
  progressKey?: string;
  /** The provider settings changed while a run was under way: the next run gets an environment built from them. */
  settingsChanged?: boolean;
}

/** The open task as the panel shows it. */
export function taskView(open: OpenTask, interactions: Pick<WebviewInteractions, 'approvalOf' | 'questionOf'>): TaskView {
  const facts = !open.task && open.stored ? open.stored.facts : factsOfEvents(eventsOf(open));
  const pendingApproval = open.run ? interactions.approvalOf(open.id) : undefined;
  const pendingQuestion = open.run ? interactions.questionOf(open.id) : undefined;
  const error = open.run ? undefined : facts.error;
  const { usage, ...progress } = facts.progress;
  const { messages, messagesFrom } = newestPage(open);
  return {
    id: open.id,
    messages,
    ...(messagesFrom > 0 ? { messagesFrom } : {}),
    ...(facts.problems.length > 0 ? { problems: [...facts.problems] } : {}),
    usage,
    ...progress,
    mode: open.pendingMode ?? facts.mode,
    modeSlug: open.pendingModeSlug ?? facts.modeSlug,
    status: open.run ? runStatus([], true, { approval: Boolean(pendingApproval), question: Boolean(pendingQuestion) }) : facts.status,
    ...(pendingApproval ? { pendingApproval } : {}),
    ...(pendingQuestion ? { pendingQuestion } : {}),
    ...(error ? { error } : {}),
    ...(open.task && open.task.queuedMessages.length > 0 ? { queued: [...open.task.queuedMessages] } : {}),
  };
}

/**
 * The open task's events: the live log, the events of a task that was live here, or a stored
 * task's log read whole now (what export, a screenshot or the rules need; kept once read).
 */
export function eventsOf(open: OpenTask): readonly TaskEvent[] {
  if (open.task) return open.task.log.events;
  open.viewedEvents ??= open.stored ? readStoredTaskTolerantly(open.stored.storageDir, open.id).events : [];
  return open.viewedEvents;
}
