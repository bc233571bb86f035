import type { RedactingStream, SecretRedactor } from '../secrets/secret-redactor.js';

/**
 * Running tools' output for the UI, with a tail that could start a secret held back until the
 * next chunk shows it is none (the logged result is complete and redacted on its own).
 */
export class ToolProgress {
  private readonly streams = new Map<string, RedactingStream>();

  constructor(private readonly redactor: SecretRedactor | undefined) {}

  /** What of this chunk of a call's output may be shown now (undefined: nothing yet). */
  shown(callId: string, text: string): string | undefined {
    if (!this.redactor) return text;
    let stream = this.streams.get(callId);
    if (!stream) {
      stream = this.redactor.stream();
      this.streams.set(callId, stream);
    }
    const shown = stream.push(text);
    return shown === '' ? undefined : shown;
  }
}
