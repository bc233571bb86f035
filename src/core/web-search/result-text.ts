// Backends' fields turned into plain, bounded text: search APIs put HTML in snippets (Brave's
// <strong>), and nothing a server sends may make a result arbitrarily long.

import type { SearchResult } from './search-backend.js';

/** Longest title, URL and snippet kept per result. */
const MAX_TITLE_CHARS = 200;
const MAX_URL_CHARS = 500;
export const MAX_SNIPPET_CHARS = 300;

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/** Text without tags, entities decoded, whitespace collapsed, cut to `max` characters with "…". */
export function plainText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = value
    .slice(0, max * 4)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? numericEntity(name) ?? whole)
    .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function numericEntity(name: string): string | undefined {
  const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : /^#/.test(name) ? Number.parseInt(name.slice(1), 10) : Number.NaN;
  return Number.isInteger(code) && code > 31 && code < 0x110000 ? String.fromCodePoint(code) : undefined;
}

/** A result from a backend's raw fields, or undefined when it has no http(s) URL. */
export function searchResult(title: unknown, url: unknown, snippet: unknown): SearchResult | undefined {
  if (typeof url !== 'string' || url.length > MAX_URL_CHARS) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return { title: plainText(title, MAX_TITLE_CHARS) || parsed.host, url: parsed.href, snippet: plainText(snippet, MAX_SNIPPET_CHARS) };
}

/** The array at `path` of a JSON answer, or a description of what is there instead. */
export function arrayAt(answer: unknown, path: readonly string[]): unknown[] | string {
  let value: unknown = answer;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `no "${path.join('.')}" in the answer`;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined) return `no "${path.join('.')}" in the answer`;
  return Array.isArray(value) ? value : `"${path.join('.')}" is not a list`;
}

/** The results of a list of raw items; items that are not objects or have no http(s) URL are skipped. */
export function resultsOf(items: readonly unknown[], fields: { title: string; url: string; snippet: string }): SearchResult[] {
  const results: SearchResult[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const raw = item as Record<string, unknown>;
    const result = searchResult(raw[fields.title], raw[fields.url], raw[fields.snippet]);
    if (result) results.push(result);
  }
  return results;
}
