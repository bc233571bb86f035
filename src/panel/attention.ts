import type { TaskOutcome } from '../core/task/task.js';
import type { Disposable, Event } from './event-emitter.js';
import type { WebviewInteractions } from './webview-interactions.js';

/** Where attention notices come from and go to. */
interface AttentionInputs {
  readonly interactions: Pick<WebviewInteractions, 'pendingApproval' | 'pendingQuestion' | 'onDidChange'>;
  /** A run of the panel's task ended. */
  readonly onTaskEnded: Event<TaskOutcome>;
  /** True while a Smith chat (side bar or editor tab) is visible: the user sees it there already. */
  readonly panelVisible: () => boolean;
  /** A Smith chat was shown or hidden: a wait the user was not told of is told once none is visible. */
  readonly onPanelVisibilityChanged?: Event<void>;
  /** The user's setting (`smith.notifications`). */
  readonly enabled: () => boolean;
  /** Shows the notice; the editor offers to open the panel. */
  readonly notify: (notice: AttentionNotice) => void;
}

/** Something the user should come back for. */
export interface AttentionNotice {
  readonly kind: 'approval' | 'question' | 'finished' | 'failed';
  readonly message: string;
}

/**
 * Tells the user, when the panel is hidden, that Smith waits for them (an approval, a question) or
 * has finished; each wait is told once.
 */
export class AttentionNotices implements Disposable {
  private told: string | undefined;
  private readonly subscriptions: Disposable[];

  constructor(private readonly inputs: AttentionInputs) {
    this.subscriptions = [
      inputs.interactions.onDidChange(() => this.waitChanged()),
      inputs.onTaskEnded((outcome) => this.ended(outcome)),
      ...(inputs.onPanelVisibilityChanged ? [inputs.onPanelVisibilityChanged(() => this.waitChanged())] : []),
    ];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private waitChanged(): void {
    const { pendingApproval, pendingQuestion } = this.inputs.interactions;
    if (pendingApproval) {
      const command = pendingApproval.command === undefined ? '' : `: ${oneLine(pendingApproval.command)}`;
      this.tell(`approval:${pendingApproval.callId}`, { kind: 'approval', message: `Smith needs your approval: ${pendingApproval.summary}${command}` });
    } else if (pendingQuestion)
      this.tell(`question:${pendingQuestion.question}`, { kind: 'question', message: `Smith asks: ${oneLine(pendingQuestion.question)}` });
    else this.told = undefined;
  }

  private ended(outcome: TaskOutcome): void {
    if (outcome.status === 'completed') this.tell(undefined, { kind: 'finished', message: `Smith finished the task: ${oneLine(outcome.result)}` });
    else if (outcome.status === 'failed') this.tell(undefined, { kind: 'failed', message: `Smith stopped: ${oneLine(outcome.error)}` });
  }

  /** Tells the notice unless the user sees the panel (or turned notices off); a wait is told once. */
  private tell(key: string | undefined, notice: AttentionNotice): void {
    if (key !== undefined && key === this.told) return;
    if (!this.inputs.enabled() || this.inputs.panelVisible()) return;
    this.told = key;
    this.inputs.notify(notice);
  }
}

/** The first line, capped: a notification is a glance, the panel has the rest. */
function oneLine(text: string): string {
  const first = text.trim().split('\n')[0] ?? '';
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
}
