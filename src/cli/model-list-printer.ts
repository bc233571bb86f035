import type { ModelFactsCache } from '../core/providers/model-facts-cache.js';
import { providerModels, type ModelFacts, type ProviderModels } from '../core/providers/provider-models.js';
import type { ProviderConfig } from '../core/providers/types.js';
import { modelFactsText } from '../shared/model-facts-text.js';

/** Where `smith --list-models` writes, and whether a person reads it. */
interface ModelListOutput {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** On a terminal each model's facts follow its id; piped, one id per line, for scripts. */
  readonly terminal: boolean;
}

/**
 * `smith --list-models`: the provider's own list where it has one (with the facts it tells), the
 * cached one when it does not answer, else the catalogue. JSON: one array of every model's facts.
 * Exit code 1 when nothing could be listed.
 */
export async function printModels(config: ProviderConfig, json: boolean, output: ModelListOutput, cache?: ModelFactsCache): Promise<number> {
  const listed = await providerModels(config, cache ? { cache } : {});
  if (listed.error !== undefined) output.stderr.write(`smith: ${listed.error}\n`);
  if (listed.source === 'cache') output.stderr.write(`smith: this is the list the server gave on ${new Date(listed.fetchedAt ?? 0).toISOString()}\n`);
  if (listed.source === 'catalogue' && listed.error !== undefined && listed.models.length > 0)
    output.stderr.write("smith: these are the models Smith's catalogue knows\n");
  if (json) output.stdout.write(`${JSON.stringify(listed.models, null, 2)}\n`);
  else output.stdout.write(formatModelList(listed, output.terminal));
  return listed.source === 'server' || listed.models.length > 0 ? 0 : 1;
}

/** One line per model: its id, and on a terminal what is known of it. */
export function formatModelList(listed: ProviderModels, withFacts: boolean): string {
  const width = Math.max(0, ...listed.models.map((m) => m.id.length));
  return listed.models
    .map((model) => {
      const facts = withFacts ? describeModel(model) : '';
      return facts === '' ? `${model.id}\n` : `${model.id.padEnd(width)}  ${facts}\n`;
    })
    .join('');
}

/** "200k window · $3 / $15 per M · images · tools · reasoning", with what is known. */
export function describeModel(model: ModelFacts): string {
  return modelFactsText(model, (count) => `${tokens(count)} window`);
}

function tokens(count: number): string {
  if (count >= 1_000_000) return `${Number((count / 1_000_000).toFixed(2))}M`;
  return count >= 1000 ? `${Number((count / 1000).toFixed(1))}k` : String(count);
}
