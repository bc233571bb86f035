import type * as YamlParser from './lazy/yaml-parser.js';

/** Parses YAML (front matter, mode files); the parser is loaded on the first call, from a separate bundle (see scripts/lazy-modules.mjs). */
export function parseYaml(text: string): unknown {
  return (require('./lazy/yaml-parser.js') as typeof YamlParser).parse(text);
}
