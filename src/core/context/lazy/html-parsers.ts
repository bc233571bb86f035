// Loaded on first use (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs): only a fetched
// web page needs an HTML parser.
export { parseHTML } from 'linkedom';
export { Readability } from '@mozilla/readability';
export { default as TurndownService } from 'turndown';
