import type { TaskOutcome } from '../core/task/task.js';
import type { Disposable, Event } from './event-emitter.js';
import type { TaskWait, WebviewInteractions } from './webview-interactions.js';

/** A run of a task ended: its outcome, and (for the panel's tasks) which task it was. */
interface AttentionTaskEnd {
  readonly outcome: TaskOutcome;
  readonly taskId?: string;
  readonly title?: string;
}

/** Where attention notices come from and go to. */
interface AttentionInputs {
  readonly interactions: Pick<WebviewInteractions, 'waits' | 'onDidChange'>;
  /** The title of a task (the first line of its text), to name it in the notice; undefined when unknown. */
  readonly taskTitle?: (taskId: string) => string | undefined;
  /** A run of one of the panel's tasks ended. */
  readonly onTaskEnded: Event<AttentionTaskEnd>;
  /** True while a Smith chat (side bar or editor tab) is visible: the user sees it there already. */
  readonly panelVisible: () => boolean;
  /** A Smith chat was shown or hidden: a wait the user was not told of is told once none is visible. */
  readonly onPanelVisibilityChanged?: Event<void>;
  /** The user's setting (`smith.notifications`). */
  readonly enabled: () => boolean;
  /** Shows the notice; the editor offers to open the panel (at the task it names). */
  readonly notify: (notice: AttentionNotice) => void;
}

/** Something the user should come back for. */
export interface AttentionNotice {
  readonly kind: 'approval' | 'question' | 'finished' | 'failed';
  readonly message: string;
  /** The task it is about, when known. */
  readonly taskId?: string;
}

/**
 * Tells the user, when the panel is hidden, that Smith waits for them (an approval, a question) or
 * has finished, naming the task when it knows its title; each wait is told once, whichever of
 * several tasks waits.
 */
export class AttentionNotices implements Disposable {
  /** The waits told and still waiting. */
  private told = new Set<string>();
  private readonly subscriptions: Disposable[];

  constructor(private readonly inputs: AttentionInputs) {
    this.subscriptions = [
      inputs.interactions.onDidChange(() => this.waitChanged()),
      inputs.onTaskEnded((end) => this.ended(end)),
      ...(inputs.onPanelVisibilityChanged ? [inputs.onPanelVisibilityChanged(() => this.waitChanged())] : []),
    ];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private waitChanged(): void {
    const waiting = new Set<string>();
    for (const wait of this.inputs.interactions.waits()) {
      const notice = this.waitNotice(wait);
      waiting.add(notice.key);
      this.tell(notice.key, notice.notice);
    }
    // A wait that ended is forgotten: the next one is told, even when it looks the same.
    for (const key of this.told) if (!waiting.has(key)) this.told.delete(key);
  }

  private waitNotice(wait: TaskWait): { key: string; notice: AttentionNotice } {
    const about = wait.taskId !== undefined ? { taskId: wait.taskId } : {};
    const task = this.taskName(wait.taskId);
    if (wait.approval) {
      const command = wait.approval.command === undefined ? '' : `: ${oneLine(wait.approval.command)}`;
      return {
        key: `approval:${wait.taskId ?? ''}:${wait.approval.callId}`,
        notice: { kind: 'approval', message: `Smith needs your approval${task}: ${wait.approval.summary}${command}`, ...about },
      };
    }
    const question = wait.question!.question;
    return {
      key: `question:${wait.taskId ?? ''}:${question}`,
      notice: { kind: 'question', message: `Smith asks${task}: ${oneLine(question)}`, ...about },
    };
  }

  private ended({ outcome, taskId, title }: AttentionTaskEnd): void {
    const about = taskId !== undefined ? { taskId } : {};
    const task = title ? ` (${oneLine(title)})` : '';
    if (outcome.status === 'completed')
      this.tell(undefined, { kind: 'finished', message: `Smith finished the task${task}: ${oneLine(outcome.result)}`, ...about });
    else if (outcome.status === 'failed') this.tell(undefined, { kind: 'failed', message: `Smith stopped${task}: ${oneLine(outcome.error)}`, ...about });
  }

  /** " (Fix the login)" when the task's title is known, else nothing. */
  private taskName(taskId: string | undefined): string {
    const title = taskId === undefined ? undefined : this.inputs.taskTitle?.(taskId);
    return title ? ` (${oneLine(title)})` : '';
  }

  /** Tells the notice unless the user sees the panel (or turned notices off); a wait is told once. */
  private tell(key: string | undefined, notice: AttentionNotice): void {
    if (key !== undefined && this.told.has(key)) return;
    if (!this.inputs.enabled() || this.inputs.panelVisible()) return;
    if (key !== undefined) this.told.add(key);
    this.inputs.notify(notice);
  }
}

/** The first line, capped: a notification is a glance, the panel has the rest. */
function oneLine(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}
