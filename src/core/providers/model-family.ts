// A model the catalogue has not seen yet is most often the next version of one it knows: the
// vendors name their models by family and version (claude-opus-4-5, gpt-5.1-mini, gemini-2.5-flash),
// and a new version keeps its family's window, output limit, features and, usually, prices. So an
// unknown id of a known family takes the facts of the nearest known version, marked as inferred.
import type { CatalogVendor } from './model-catalog-data.js';

/** A model's family (the part of its name that stays between versions) and its version, as numbers. */
interface FamilyVersion {
  readonly family: string;
  readonly version: readonly number[];
}

// OpenAI's channel suffixes that name the same model family as the bare id (gpt-5.1-codex is sold as gpt-5.1).
const OPENAI_SAME_FAMILY = new Set(['', 'chat', 'codex', 'codex-max']);

/** The family and version of a catalogue-style id (lower case, snapshot suffixes removed), if the vendor names its models that way. */
export function familyOf(vendor: CatalogVendor, id: string): FamilyVersion | undefined {
  switch (vendor) {
    case 'anthropic': {
      // claude-opus-4-5, claude-sonnet-4, and the older order claude-3-7-sonnet.
      const tierFirst = /^claude-(opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2}))?$/.exec(id);
      if (tierFirst) return { family: tierFirst[1] as string, version: numbers(tierFirst[2], tierFirst[3]) };
      const versionFirst = /^claude-(\d{1,2})(?:[-.](\d{1,2}))?-(opus|sonnet|haiku)$/.exec(id);
      return versionFirst ? { family: versionFirst[3] as string, version: numbers(versionFirst[1], versionFirst[2]) } : undefined;
    }
    case 'openai': {
      const gpt = /^gpt-(\d{1,2})(?:\.(\d{1,2}))?(?:-([a-z][a-z-]*))?$/.exec(id);
      if (gpt) {
        const variant = gpt[3] ?? '';
        const family = OPENAI_SAME_FAMILY.has(variant) ? '' : variant;
        return { family: `gpt-${family}`, version: numbers(gpt[1], gpt[2]) };
      }
      const reasoning = /^o(\d{1,2})(?:-(mini|pro))?$/.exec(id);
      return reasoning ? { family: `o-${reasoning[2] ?? ''}`, version: numbers(reasoning[1]) } : undefined;
    }
    case 'gemini': {
      const gemini = /^gemini-(\d{1,2})(?:\.(\d{1,2}))?-(pro|flash-lite|flash)$/.exec(id);
      return gemini ? { family: gemini[3] as string, version: numbers(gemini[1], gemini[2]) } : undefined;
    }
    case 'xai': {
      const grok = /^grok-(\d{1,2})(?:[.-](\d))?(?:-([a-z][a-z-]*))?$/.exec(id);
      return grok ? { family: grok[3] ?? '', version: numbers(grok[1], grok[2]) } : undefined;
    }
    default:
      // DeepSeek and Cerebras name models without a family scheme to go by.
      return undefined;
  }
}

/**
 * Of the known ids, the one whose facts an unknown id of the same family takes: the newest known
 * version not newer than it (a newer model keeps its predecessor's limits), else, for an id older
 * than every known one, the oldest known. Undefined when the id names no known family.
 */
export function nearestOfFamily(vendor: CatalogVendor, id: string, knownIds: readonly string[]): string | undefined {
  const wanted = familyOf(vendor, id);
  if (!wanted) return undefined;
  let atOrBelow: { id: string; version: readonly number[] } | undefined;
  let above: { id: string; version: readonly number[] } | undefined;
  for (const known of knownIds) {
    const kin = familyOf(vendor, known);
    if (!kin || kin.family !== wanted.family) continue;
    if (compareVersions(kin.version, wanted.version) <= 0) {
      if (!atOrBelow || compareVersions(kin.version, atOrBelow.version) > 0) atOrBelow = { id: known, version: kin.version };
    } else if (!above || compareVersions(kin.version, above.version) < 0) {
      above = { id: known, version: kin.version };
    }
  }
  return (atOrBelow ?? above)?.id;
}

function numbers(...parts: Array<string | undefined>): number[] {
  return parts.map((part) => (part === undefined ? 0 : Number(part)));
}

/** Orders versions part by part: 4.10 is newer than 4.5. */
function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
