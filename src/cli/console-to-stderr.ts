import { Console } from 'node:console';

/**
 * Sends everything written through the global console to stderr. The CLI's stdout carries only
 * what Smith writes there itself (the JSON of --output json / stream-json, the MCP messages of
 * mcp-serve, the result, a dry run's patch), while SDKs print through console: the Google Gen AI
 * SDK's console.debug that "the API key will take precedence", deprecation notes, and the like.
 * Node's process warnings (MetadataLookupWarning …) already go to stderr.
 */
export function routeConsoleToStderr(): void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const name of [
    'log',
    'info',
    'debug',
    'dir',
    'dirxml',
    'table',
    'trace',
    'group',
    'groupCollapsed',
    'groupEnd',
    'count',
    'countReset',
    'timeLog',
    'timeEnd',
  ] as const) {
    (console as unknown as Record<string, unknown>)[name] = toStderr[name].bind(toStderr);
  }
}
