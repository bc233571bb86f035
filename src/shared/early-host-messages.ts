// A chat page loaded before Smith's core (src/host/vscode/chat-view-provider.ts) keeps what the host
// posts before the page's script listens, under this global name, set by a script in the page's
// HTML (src/host/vscode/webview-html.ts); the script takes them (webview-ui/src/state/embedded-snapshot.ts).

/** The global function that hands over the host messages the page received so far, once, and stops keeping them. */
export const EARLY_HOST_MESSAGES = 'smithEarlyHostMessages';
