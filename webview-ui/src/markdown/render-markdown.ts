import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './escape-html.js';
import { highlightCode } from './highlight.js';

const SAFE_LINK = /^(https?:|mailto:)/i;

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const { html, language } = highlightCode(text, lang);
      const cls = language === undefined ? 'hljs' : `hljs language-${language}`;
      return `<pre class="code-block"><code class="${cls}">${html}</code></pre>\n`;
    },
    // Raw HTML from the model is shown as the text it wrote, never as markup: models quote tags
    // in prose ("wrap it in <details>") far more often than they mean to render them.
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    // Images would be remote loads (blocked by the CSP anyway); show a link the user can open.
    image({ href, text }: Tokens.Image): string {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || 'image')}</a>`;
    },
  },
});

const purifier = DOMPurify;
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  // Only web and mail links survive; VS Code opens them outside the webview when clicked.
  if (!SAFE_LINK.test(href)) node.removeAttribute('href');
  else if (!node.hasAttribute('title')) node.setAttribute('title', href);
  node.removeAttribute('target');
});

const SANITIZE_OPTIONS = {
  FORBID_TAGS: ['style', 'img', 'svg', 'math', 'form', 'iframe', 'object', 'embed', 'video', 'audio', 'source'],
  FORBID_ATTR: ['style', 'srcset'],
  ALLOW_DATA_ATTR: false,
};

/** Renders model Markdown to sanitised HTML (marked → DOMPurify), code blocks highlighted. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return purifier.sanitize(html, SANITIZE_OPTIONS);
}
