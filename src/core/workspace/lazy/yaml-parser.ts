// Loaded by the first YAML read (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs).
export { parse } from 'yaml';
