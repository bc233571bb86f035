/** What an import could not carry over, each thing once with how often it came up, in the order first met. */
export class NotCarried {
  private readonly counts = new Map<string, number>();

  /** Notes one more occurrence of a thing left behind (worded as a noun phrase: "images the session does not hold"). */
  add(what: string): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
  }

  /** One line each, with how often it occurred when more than once. */
  lines(): string[] {
    return [...this.counts].map(([what, count]) => (count > 1 && !/^\d/.test(what) ? `${what} (${count}×)` : what));
  }
}
