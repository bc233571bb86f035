import { fetchPage } from '../context/web-page.js';
import { WebAccessRefused } from '../web/guarded-fetch.js';
import { checkWebAccess, type WebAccessPolicy } from '../web/web-access.js';
import { isLocalHost, parseWebUrl } from '../web/web-hosts.js';
import type { FetchFacts } from '../../shared/tool-details.js';
import { builtInSpec, mistake, type ToolHandler, type ToolOutcome } from '../tool-kit/tool-spec.js';

/** Most characters of Markdown one web_fetch returns (as read_file's output is capped); a note says when the page was cut. */
const WEB_FETCH_MAX_CHARS = 50_000;

/** What web_fetch needs from the user's settings: where it may go (see checkWebAccess) and how much it returns. */
interface WebFetchOptions extends WebAccessPolicy {
  readonly maxChars?: number;
}

/**
 * web_fetch: a page as Markdown, converted by the same code as an @url mention. The user is asked
 * once per host in a task (unless web tools are auto-approved); hosts the policy refuses (deny
 * list, WebFetch deny rules, the sandbox's hosts) are refused at the first hop and at every redirect.
 */
export function createWebFetchTool(options: WebFetchOptions = {}): ToolHandler {
  const maxChars = options.maxChars ?? WEB_FETCH_MAX_CHARS;
  // Hosts the user let through in this task: asking again for every page of the same docs site helps no one.
  const approvedHosts = new Set<string>();
  return {
    spec: builtInSpec({
      name: 'web_fetch',
      description: `Fetch a web page (http or https) and get its main content as Markdown, for documentation, an issue or an article the task needs. At most ${maxChars} characters come back, with a note when the page was cut. Use browser_action instead to see or operate a page.`,
      params: [{ name: 'url', required: true, description: 'The full URL, e.g. https://nodejs.org/api/fs.html' }],
      example: '<web_fetch>\n<url>https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API</url>\n</web_fetch>',
    }),
    async execute(params, context): Promise<ToolOutcome> {
      const url = parseWebUrl(params.url ?? '');
      if (typeof url === 'string') return mistake(url);
      // Refused hosts are never asked about; the fetch judges every hop again, on the addresses it connects to.
      const access = await checkWebAccess(url.hostname, options);
      if (!access.allowed && access.refused) return { kind: 'error', error: access.reason, mistake: false };
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
      let page: Awaited<ReturnType<typeof fetchPage>>;
      try {
        page = await fetchPage(url.href, { signal: context.signal, policy: options });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return { kind: 'error', error: `Could not fetch ${url.href}: ${describeFetchError(error)}`, mistake: false };
      }
      const { markdown } = page;
      const truncated = markdown.length > maxChars;
      const shown = truncated ? markdown.slice(0, maxChars) : markdown;
      const note = truncated ? `\n\n[The page's Markdown has ${markdown.length} characters; only the first ${maxChars} are shown.]` : '';
      const facts: FetchFacts = { url: url.href, chars: markdown.length, truncated: truncated || page.cut };
      return { kind: 'result', output: (shown.trim() === '' ? '(The page has no text content.)' : shown) + note, details: { fetch: facts } };
    },
  };
}

/** Network failures carry a code (ECONNREFUSED …); a refusal's message is said as is. */
function describeFetchError(error: unknown): string {
  if (error instanceof WebAccessRefused) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') return 'no answer within 30 s';
  const message = (error as Error).message ?? String(error);
  return code ? `${code} (${message})` : message;
}
