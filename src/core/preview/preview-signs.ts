import type { PreviewReason } from '../../shared/command-preview-facts.js';

/** What programs print when they cannot reach the network (a preview has none). */
const NETWORK_FAILURE =
  /network is unreachable|could not resolve host|temporary failure in name resolution|name or service not known|getaddrinfo (?:EAI_AGAIN|ENOTFOUND)|\bENETUNREACH\b|\bEAI_AGAIN\b|failed to connect to|connection refused|no address associated with hostname|could not resolve (?:proxy|hostname)|unable to resolve host|nodename nor servname/i;

/** What programs print when a write meets the read-only file system outside the workspace. */
const READ_ONLY = /read-only file system|\bEROFS\b/i;

/** At most this many lines are quoted per reason. */
const QUOTED = 3;

/**
 * The reasons a preview's output shows: a failure for want of the network, a write refused
 * outside the workspace. Read from what the command printed, so a command that hides its errors
 * (`2>/dev/null`) is not caught here (docs/command-preview.md says so).
 */
export function reasonsFromOutput(output: string): PreviewReason[] {
  const lines = output.split('\n');
  const network = lines.filter((line) => NETWORK_FAILURE.test(line)).slice(0, QUOTED);
  const readOnly = lines.filter((line) => READ_ONLY.test(line)).slice(0, QUOTED);
  return [
    ...(network.length > 0
      ? [{ code: 'network' as const, detail: `it needs the network, which is off during a preview: ${network.map((l) => l.trim()).join(' | ')}` }]
      : []),
    ...(readOnly.length > 0
      ? [
          {
            code: 'outside-write' as const,
            detail: `it tried to write outside the workspace (read-only during a preview): ${readOnly.map((l) => l.trim()).join(' | ')}`,
          },
        ]
      : []),
  ];
}
