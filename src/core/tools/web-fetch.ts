import { fetchPageAsMarkdown, type FetchPageOptions } from '../context/web-page.js';
import { deniedBy, deniedMessage, isLocalHost, parseWebUrl } from '../web/web-hosts.js';
import type { FetchFacts } from '../../shared/tool-details.js';
import { mistake, type ToolHandler, type ToolOutcome } from './tool-spec.js';

/** Most characters of Markdown one web_fetch returns (as read_file's output is capped); a note says when the page was cut. */
export const WEB_FETCH_MAX_CHARS = 50_000;

/** What web_fetch needs from the user's settings. */
export interface WebFetchOptions {
  /** Hosts never fetched (see deniedBy). */
  readonly deniedDomains?: readonly string[];
  readonly maxChars?: number;
  /** For hosts that proxy requests; the global fetch otherwise. */
  readonly fetch?: FetchPageOptions['fetch'];
}

/**
 * web_fetch: a page as Markdown, converted by the same code as an @url mention. The user is asked
 * once per host in a task (unless web tools are auto-approved); hosts on the deny list are refused.
 */
export function createWebFetchTool(options: WebFetchOptions = {}): ToolHandler {
  const maxChars = options.maxChars ?? WEB_FETCH_MAX_CHARS;
  // Hosts the user let through in this task: asking again for every page of the same docs site helps no one.
  const approvedHosts = new Set<string>();
  return {
    spec: {
      name: 'web_fetch',
      group: 'browser',
      description: `Fetch a web page (http or https) and get its main content as Markdown, for documentation, an issue or an article the task needs. At most ${maxChars} characters come back, with a note when the page was cut. Use browser_action instead to see or operate a page.`,
      params: [{ name: 'url', required: true, description: 'The full URL, e.g. https://nodejs.org/api/fs.html' }],
      example: '<web_fetch>\n<url>https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API</url>\n</web_fetch>',
    },
    async execute(params, context): Promise<ToolOutcome> {
      const url = parseWebUrl(params.url ?? '');
      if (typeof url === 'string') return mistake(url);
      const denied = deniedBy(url.hostname, options.deniedDomains ?? []);
      if (denied !== undefined) return { kind: 'error', error: deniedMessage(url.hostname, denied), mistake: false };
      const host = url.host.toLowerCase();
      if (!approvedHosts.has(host)) {
        const answer = await context.approve({
          summary: `Fetch ${url.href}`,
          ...(isLocalHost(url.hostname)
            ? {}
            : { reason: `Fetches a page from ${url.hostname}; once allowed, other pages of ${host} are fetched without asking in this task.` }),
        });
        if (!answer.approved) return { kind: 'rejected', feedback: answer.feedback };
        approvedHosts.add(host);
      }
      let markdown: string;
      try {
        markdown = await fetchPageAsMarkdown(url.href, { signal: context.signal, fetch: refusingDeniedRedirects(options.fetch ?? fetch, options.deniedDomains ?? []) });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return { kind: 'error', error: `Could not fetch ${url.href}: ${describeFetchError(error)}`, mistake: false };
      }
      const truncated = markdown.length > maxChars;
      const shown = truncated ? markdown.slice(0, maxChars) : markdown;
      const note = truncated ? `\n\n[The page's Markdown has ${markdown.length} characters; only the first ${maxChars} are shown.]` : '';
      const facts: FetchFacts = { url: url.href, chars: markdown.length, truncated };
      return { kind: 'result', output: (shown.trim() === '' ? '(The page has no text content.)' : shown) + note, details: { fetch: facts } };
    },
  };
}

/** Most redirects one fetch follows, as browsers and fetch() itself do. */
const MAX_REDIRECTS = 20;

/** A fetch that follows redirects itself, so that a redirect to a host on the deny list is refused, not followed. */
function refusingDeniedRedirects(base: typeof fetch, denied: readonly string[]): typeof fetch {
  return async (input, init) => {
    let target = new URL(String(input instanceof Request ? input.url : input));
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await base(target.href, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel();
      target = new URL(location, target);
      const entry = deniedBy(target.hostname, denied);
      if (entry !== undefined) throw new Error(`it redirects to ${target.href}, and ${deniedMessage(target.hostname, entry)}`);
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  };
}

/** fetch() reports network failures as "fetch failed" with the reason in `cause`. */
function describeFetchError(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (message === 'fetch failed' && cause) return cause.code ? `${cause.code} (${cause.message ?? 'network error'})` : (cause.message ?? message);
  if ((error as Error).name === 'TimeoutError') return 'no answer within 30 s';
  return message;
}
