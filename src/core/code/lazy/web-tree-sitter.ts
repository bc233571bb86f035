// Loaded when the first grammar is (its own bundle, dist/lazy/: see scripts/lazy-modules.mjs).
// A require, not an import: esbuild then bundles web-tree-sitter's CommonJS build. Its ES module
// build reads import.meta.url, which is empty in CommonJS bundles, and fails at Parser.init.
import treeSitter = require('web-tree-sitter');

export const { Language, Parser, Query } = treeSitter;
