/** Messages the user typed while the task worked, not yet delivered to the model, oldest first. */
export class QueuedMessages {
  private readonly texts: string[] = [];

  push(text: string): void {
    this.texts.push(text);
  }

  /** Replaces (or, without `text`, removes) a queued message; false when there is none at `index` (it has been delivered meanwhile). */
  update(index: number, text?: string): boolean {
    if (index < 0 || index >= this.texts.length) return false;
    if (text === undefined) this.texts.splice(index, 1);
    else this.texts[index] = text;
    return true;
  }

  get all(): readonly string[] {
    return this.texts;
  }

  /** Removes and returns every queued message. */
  takeAll(): string[] {
    return this.texts.splice(0);
  }
}
