/** The named server does not exist or is not connected; the message says which and why. */
export class McpServerUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpServerUnavailableError';
  }
}

/** A call ran past the server's timeout and was cancelled (notifications/cancelled was sent). */
export class McpTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpTimeoutError';
  }
}

/** The server answered a request with a JSON-RPC error; `code` tells a bad request (-32602) from a server fault. */
export class McpRequestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'McpRequestError';
  }

  /** True when the request itself was wrong (bad params, unknown resource), i.e. the caller's mistake. */
  get isCallerMistake(): boolean {
    // -32002 is the spec's "resource not found"; the SDK has no constant for it.
    return this.code === -32602 || this.code === -32002;
  }
}
