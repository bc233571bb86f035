// A web page as Markdown for the model, with well-kept libraries: linkedom for the DOM, Mozilla's
// Readability for the article, turndown for the Markdown. Loaded on first use: none of them is
// needed to start Smith. The page is fetched through guardedFetch (every redirect hop judged) and
// kept small before any DOM is built: a few megabytes of page never become hundreds of megabytes.

import { guardedFetch } from '../web/guarded-fetch.js';
import type { WebAccessPolicy } from '../web/web-access.js';
import { stripHeavyMarkup } from './html-strip.js';

/** Bytes of a page read at most; the rest is not downloaded (the Markdown is cut far sooner anyway). */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Characters of HTML, once scripts, styles and inline data are gone, that go into the DOM. */
const MAX_DOM_CHARS = 512 * 1024;
/** Elements that go into the DOM: Readability's and the DOM's cost grow with them, far faster than with the bytes. */
const MAX_DOM_ELEMENTS = 10_000;
/** Characters of the article's HTML turned into Markdown (more than the Markdown any caller keeps). */
const MAX_MARKDOWN_INPUT_CHARS = 256 * 1024;

/** What fetching a page needs: where the tools may go, and when to give up. */
interface FetchPageOptions {
  readonly policy?: WebAccessPolicy;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

/** A page converted: the Markdown, and whether only part of the page was read. */
interface FetchedPage {
  readonly markdown: string;
  readonly cut: boolean;
}

/**
 * Fetches `url` and converts it: an HTML page to the Markdown of its main article (its title
 * first), text and JSON as they are. Anything else (images, archives) is refused with a clear
 * error, as are HTTP errors and hosts the policy refuses (WebAccessRefused). A page too large is
 * read in part, with a note in the Markdown saying so.
 */
export async function fetchPage(url: string, options: FetchPageOptions = {}): Promise<FetchedPage> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`only http and https pages can be fetched, not ${parsed.protocol}`);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const response = await guardedFetch(url, {
    policy: options.policy ?? {},
    signal,
    headers: { accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.1' },
  });
  if (response.status < 200 || response.status >= 300) {
    response.body.destroy();
    throw new Error(`${url} answered HTTP ${response.status} ${response.statusText}`.trim());
  }
  const type = response.contentType;
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
  const seconds = Math.round((options.timeoutMs ?? 30_000) / 1000);
  // A page still arriving when time is up (a slow drip) is read as far as it came, unless the caller gave up.
  const { text, cut: readCut } = await readCapped(response.body, maxBytes, charsetOf(type), () => timeout.aborted && !options.signal?.aborted);
  const downloadCut = readCut !== undefined;
  const readNote =
    readCut === 'size'
      ? `[The page is larger than ${formatBytes(maxBytes)}; only its first ${formatBytes(maxBytes)} were read.]`
      : readCut === 'time'
        ? `[The page was still arriving after ${seconds} s; only what came by then was read.]`
        : '';
  if (type.includes('html') || (type === '' && /^\s*</.test(text))) {
    const { markdown, cut } = await htmlToMarkdown(text, response.url, readNote);
    return { markdown, cut: cut || downloadCut };
  }
  if (type.startsWith('text/') || type.includes('json') || type.includes('xml'))
    return { markdown: readNote ? `${readNote}\n\n${text}` : text, cut: downloadCut };
  throw new Error(`${url} is ${type || 'of an unknown type'}, not a page Smith can read as text`);
}

/** fetchPage's Markdown alone (what an @url mention attaches; a cut page says so in the text). */
export async function fetchPageAsMarkdown(url: string, options: FetchPageOptions = {}): Promise<string> {
  return (await fetchPage(url, options)).markdown;
}

/**
 * The main content of an HTML page as Markdown; the whole body when Readability finds no article.
 * Scripts, styles, SVG, comments and long inline data are removed before parsing, and at most
 * MAX_DOM_CHARS of what is left is parsed; `note` (and a note of this cut) follows the source line.
 */
async function htmlToMarkdown(html: string, url: string, note = ''): Promise<FetchedPage> {
  // A separate bundle (see scripts/lazy-modules.mjs), loaded by the first page fetched.
  const { parseHTML, Readability, TurndownService } = await import('./lazy/html-parsers.js');
  const stripped = stripHeavyMarkup(html);
  const cutText = cutBeforeTag(stripped, MAX_DOM_CHARS, MAX_DOM_ELEMENTS);
  const domCut = cutText.length < stripped.length;
  // linkedom builds no body for a bare fragment (`<p>…</p>` served as a page): it gets one.
  const kept = /<(html|body)[\s>]/i.test(cutText) ? cutText : `<!doctype html><html><body>${cutText}</body></html>`;
  const { document } = parseHTML(kept);
  const title = document.querySelector('title')?.textContent?.trim() ?? '';
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability changes the document it reads; the body is parsed again only if it finds nothing.
    article = new Readability(document as unknown as Document).parse();
  } catch {
    article = null;
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  const heading = (article?.title || title).trim();
  const content = article?.content || parseHTML(kept).document.body?.innerHTML || '';
  // Handed over parsed (by linkedom, as everything here): given a string, turndown would parse it with
  // a second HTML parser, which the package leaves out (esbuild.mjs).
  const body = parseHTML(`<!doctype html><html><body>${cutBeforeTag(content, MAX_MARKDOWN_INPUT_CHARS, Number.POSITIVE_INFINITY)}</body></html>`).document.body;
  const markdown = turndown.turndown(body as unknown as HTMLElement).trim();
  const cutNote = domCut
    ? `[The page is too large to convert whole (more than ${formatBytes(MAX_DOM_CHARS)} or ${MAX_DOM_ELEMENTS} elements once scripts and styles are removed); only its first part was read.]`
    : '';
  const parts = [heading ? `# ${heading}` : '', `Source: ${url}`, note, cutNote, markdown];
  return { markdown: parts.filter((part) => part !== '').join('\n\n'), cut: domCut };
}

/** `html` cut before the tag that passes `maxChars` characters or opens element number `maxElements + 1`; whole when it has neither. */
function cutBeforeTag(html: string, maxChars: number, maxElements: number): string {
  let end = html.length;
  if (Number.isFinite(maxElements)) {
    const opening = /<[a-z]/gi;
    let count = 0;
    for (let match = opening.exec(html); match !== null && match.index < maxChars; match = opening.exec(html)) {
      if (++count > maxElements) {
        end = match.index;
        break;
      }
    }
  }
  if (end > maxChars) {
    const lastTag = html.lastIndexOf('<', maxChars);
    end = lastTag > maxChars / 2 ? lastTag : maxChars;
  }
  return html.slice(0, end);
}

/** Reads a body up to `maxBytes`, then stops the download; `timedOut` tells a timeout (keep what came) from a failure. */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void },
  maxBytes: number,
  charset: string,
  timedOut: () => boolean,
): Promise<{ text: string; cut?: 'size' | 'time' }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let cut: 'size' | 'time' | undefined;
  try {
    for await (const chunk of body) {
      const room = maxBytes - bytes;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      bytes += Math.min(chunk.length, room);
      // A page of exactly maxBytes counts as cut: whether more follows is not waited for.
      if (bytes >= maxBytes) {
        cut = 'size';
        break;
      }
    }
  } catch (error) {
    if (!timedOut() || bytes === 0) throw error;
    cut = 'time';
  } finally {
    body.destroy();
  }
  return { text: decode(Buffer.concat(chunks), charset), ...(cut ? { cut } : {}) };
}

function charsetOf(contentType: string): string {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
}

function decode(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}
