// What of a web page never reaches the DOM: it carries no text for the model, and on big pages it is
// most of the bytes (bundled scripts, inline SVG, base64 images). Done on the string in one linear
// pass, so an unclosed tag or a flood of them costs no more than the page's length.

/** Elements removed with everything inside them. */
const DROPPED = ['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio'];
/** An attribute value longer than this (a data: URI, a huge inline style) is emptied. */
const MAX_ATTRIBUTE_CHARS = 1_000;

const OPENING = new RegExp(`<!--|<(${DROPPED.join('|')})(?=[\\s/>])`, 'gi');
const LONG_ATTRIBUTE = new RegExp(`=(\\s*)(?:"[^"]{${MAX_ATTRIBUTE_CHARS},}"|'[^']{${MAX_ATTRIBUTE_CHARS},}')`, 'g');

/**
 * `html` without comments, the DROPPED elements and long attribute values. An element or comment
 * left open runs to the end of the page, as a browser would read it, and is dropped with it.
 */
export function stripHeavyMarkup(html: string): string {
  const kept: string[] = [];
  let from = 0;
  OPENING.lastIndex = 0;
  for (let match = OPENING.exec(html); match !== null; match = OPENING.exec(html)) {
    kept.push(html.slice(from, match.index));
    const end = match[1] === undefined ? commentEnd(html, match.index) : elementEnd(html, match.index, match[1]);
    if (end === undefined) {
      from = html.length;
      break;
    }
    from = end;
    OPENING.lastIndex = end;
  }
  kept.push(html.slice(from));
  return kept.join('').replace(LONG_ATTRIBUTE, '=$1""');
}

function commentEnd(html: string, start: number): number | undefined {
  const end = html.indexOf('-->', start + 4);
  return end === -1 ? undefined : end + 3;
}

/** Where the element opened at `start` ends: after its closing tag, or after `/>` for a self-closed SVG/MathML one. */
function elementEnd(html: string, start: number, name: string): number | undefined {
  const tagEnd = html.indexOf('>', start);
  if (tagEnd === -1) return undefined;
  if (html[tagEnd - 1] === '/' && /^(svg|math)$/i.test(name)) return tagEnd + 1;
  const closing = new RegExp(`</${name}\\s*>`, 'gi');
  closing.lastIndex = tagEnd + 1;
  const found = closing.exec(html);
  return found === null ? undefined : found.index + found[0].length;
}
