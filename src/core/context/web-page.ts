// A web page as Markdown for the model, with well-kept libraries: linkedom for the DOM, Mozilla's
// Readability for the article, turndown for the Markdown. Loaded on first use: none of them is
// needed to start Smith.

/** Pages larger than this are not read further (the Markdown is cut later anyway). */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

/** What fetching a page needs; `fetch` is injectable so hosts can proxy it. */
export interface FetchPageOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * Fetches `url` and converts it: an HTML page to the Markdown of its main article (its title
 * first), text and JSON as they are. Anything else (images, archives) is refused with a clear
 * error, as are HTTP errors.
 */
export async function fetchPageAsMarkdown(url: string, options: FetchPageOptions = {}): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`only http and https pages can be fetched, not ${parsed.protocol}`);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const response = await (options.fetch ?? fetch)(url, { signal, redirect: 'follow', headers: { accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.1' } });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status} ${response.statusText}`.trim());
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  const body = await readCapped(response);
  if (type.includes('html') || (type === '' && /^\s*</.test(body))) return htmlToMarkdown(body, response.url || url);
  if (type.startsWith('text/') || type.includes('json') || type.includes('xml')) return body;
  throw new Error(`${url} is ${type || 'of an unknown type'}, not a page Smith can read as text`);
}

/** The main content of an HTML page as Markdown; the whole body when Readability finds no article. */
export async function htmlToMarkdown(html: string, url: string): Promise<string> {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([import('linkedom'), import('@mozilla/readability'), import('turndown')]);
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() ?? '';
  for (const element of document.querySelectorAll('script, style, noscript, template')) element.remove();
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability changes the document it reads; it gets its own copy.
    article = new Readability(parseHTML(document.toString()).document as unknown as Document).parse();
  } catch {
    article = null;
  }
  const heading = (article?.title || title).trim();
  const markdown = turndown.turndown(article?.content || document.body?.innerHTML || '').trim();
  const source = `Source: ${url}`;
  return [heading ? `# ${heading}` : '', source, markdown].filter((part) => part !== '').join('\n\n');
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    chunks.push(value);
    bytes += value.length;
    if (bytes >= MAX_PAGE_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
