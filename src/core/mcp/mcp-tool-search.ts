import type { McpToolInfo } from './mcp-connection.js';

/** A tool in the catalogue, with the server it lives on. */
export interface McpCatalogueTool {
  readonly server: string;
  readonly tool: McpToolInfo;
}

/** A search hit, best first. */
interface McpToolMatch extends McpCatalogueTool {
  readonly score: number;
}

// A query word found in the tool's name says much more than one found in its description.
const NAME_WEIGHT = 3;
const DESCRIPTION_WEIGHT = 1;
const SERVER_WEIGHT = 1;
const PREFIX_FACTOR = 0.5;
const SYNONYM_FACTOR = 0.8;
// Verbs tools and people name differently; stems, as words() produces them.
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  send: ['post'],
  post: ['send'],
  creat: ['add', 'new', 'open'],
  add: ['creat'],
  delet: ['remov', 'trash'],
  remov: ['delet'],
  find: ['search', 'lookup'],
  search: ['find', 'query'],
  get: ['read', 'fetch', 'show'],
  read: ['get', 'fetch'],
  show: ['get', 'list'],
  list: ['show'],
  edit: ['updat', 'chang'],
  updat: ['edit', 'chang'],
  chang: ['updat', 'edit'],
};
const STOP_WORDS = new Set(
  'a an and are as at be by can do for from get i in into is it me my of on or please some that the this to tool use using with you your want need'.split(' '),
);

/**
 * Ranks tools by how well their name and description match the query: each query word counts
 * with its rarity in the catalogue (IDF), more in the name than in the description; a word that
 * only starts a name word counts half; the whole query inside the name adds a bonus.
 */
export function searchMcpTools(catalogue: readonly McpCatalogueTool[], query: string, limit = 10): McpToolMatch[] {
  const queryWords = [...new Set(words(query))];
  if (queryWords.length === 0) return [];
  const docs = catalogue.map((entry) => ({
    entry,
    name: new Set(words(entry.tool.name)),
    title: new Set(words(entry.tool.title ?? '')),
    description: new Set(words(entry.tool.description)),
    server: new Set(words(entry.server)),
  }));
  const idf = new Map<string, number>();
  for (const word of queryWords) {
    const containing = docs.filter((d) => d.name.has(word) || d.description.has(word) || d.title.has(word)).length;
    idf.set(word, Math.log(1 + (docs.length + 1) / (containing + 1)));
  }
  const compactQuery = query.toLowerCase().replace(/[^a-z0-9]/g, '');
  const matches: McpToolMatch[] = [];
  for (const doc of docs) {
    let score = 0;
    for (const word of queryWords) {
      const alternatives = [{ word, factor: 1 }, ...(SYNONYMS[word] ?? []).map((w) => ({ word: w, factor: SYNONYM_FACTOR }))];
      score += Math.max(...alternatives.map((a) => a.factor * wordScore(doc, a.word))) * idf.get(word)!;
    }
    const compactName = doc.entry.tool.name.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (compactQuery.length >= 4 && compactName.includes(compactQuery)) score += NAME_WEIGHT * 2;
    if (score > 0) matches.push({ ...doc.entry, score });
  }
  // Ties go to the shorter name: the more general tool.
  matches.sort((a, b) => b.score - a.score || a.tool.name.length - b.tool.name.length || a.tool.name.localeCompare(b.tool.name));
  return matches.slice(0, limit);
}

interface SearchDoc {
  readonly name: ReadonlySet<string>;
  readonly title: ReadonlySet<string>;
  readonly description: ReadonlySet<string>;
  readonly server: ReadonlySet<string>;
}

/** How well one query word matches a tool, before its rarity is counted. */
function wordScore(doc: SearchDoc, word: string): number {
  let score = 0;
  if (doc.name.has(word) || doc.title.has(word)) score += NAME_WEIGHT;
  else if (word.length >= 3 && [...doc.name].some((w) => w.length >= 3 && (w.startsWith(word) || word.startsWith(w)))) score += NAME_WEIGHT * PREFIX_FACTOR;
  if (doc.description.has(word)) score += DESCRIPTION_WEIGHT;
  if (doc.server.has(word)) score += SERVER_WEIGHT;
  return score;
}

/** Lower-case words of a text, split at non-letters and camelCase humps, lightly stemmed. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

// Enough stemming for "issues"/"issue", "listing"/"list", "created"/"create"; not a full Porter stemmer.
// A final "e" is dropped after the suffix so "create", "created" and "creating" all become "creat".
function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}
