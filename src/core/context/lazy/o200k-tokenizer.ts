// Loaded on first use (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs): the o200k ranks
// are most of the code Smith ships, and only counting tokens for a request needs them.
export { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
