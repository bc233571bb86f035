// Which results web_search shows: those of the hosts the call asked for, and none of a host the
// user keeps the web tools from (the deny list, WebFetch(domain:…) and WebSearch(domain:…) deny
// rules). Hosts are compared in their canonical form, as every web check compares them.

import { canonicalHost } from '../web/canonical-host.js';
import { findMatchingEntry } from '../web/host-patterns.js';
import type { WebDenyRule } from '../web/web-access.js';
import type { SearchRequest, SearchResult } from './search-backend.js';

/** The user's word on result hosts. */
export interface ResultPolicy {
  /** `--web-deny`, `smith.web.deniedDomains`. */
  readonly deniedDomains?: readonly string[];
  /** WebFetch(domain:…) and WebSearch(domain:…) deny rules, read at every search. */
  readonly denyRules?: () => readonly WebDenyRule[];
}

/** The results kept, and how many were dropped for what. */
export interface FilteredResults {
  readonly kept: readonly SearchResult[];
  /** Outside allowed_domains or inside blocked_domains of the call. */
  readonly droppedByCall: number;
  /** On the user's deny list or denied by a rule; the entries and rules that did it. */
  readonly droppedByUser: number;
  readonly denials: readonly string[];
  /** The same URL twice. */
  readonly duplicates: number;
}

/** Filters a backend's results (a backend's own domain limits are not trusted to hold) and keeps at most `maxResults`. */
export function filterResults(results: readonly SearchResult[], request: SearchRequest, policy: ResultPolicy): FilteredResults {
  const rules = policy.denyRules?.() ?? [];
  const ruleDomains = rules.map((rule) => rule.domain);
  const kept: SearchResult[] = [];
  const seen = new Set<string>();
  const denials = new Set<string>();
  let droppedByCall = 0;
  let droppedByUser = 0;
  let duplicates = 0;
  for (const result of results) {
    const host = new URL(result.url).hostname;
    const listed = findMatchingEntry(policy.deniedDomains ?? [], host, true);
    const ruled = findMatchingEntry(ruleDomains, host, true);
    if (listed !== undefined || ruled !== undefined) {
      droppedByUser++;
      denials.add(listed !== undefined ? `the deny list's "${listed}"` : rules.find((r) => r.domain === ruled)!.rule);
      continue;
    }
    const outside = request.allowedDomains.length > 0 && findMatchingEntry(request.allowedDomains, host, true) === undefined;
    if (outside || findMatchingEntry(request.blockedDomains, host, true) !== undefined) {
      droppedByCall++;
      continue;
    }
    const key = sameAddress(result.url);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    if (kept.length < request.maxResults) kept.push(result);
  }
  return { kept, droppedByCall, droppedByUser, denials: [...denials], duplicates };
}

/** A URL as duplicates compare: the canonical host, no fragment (one page found twice by two engines). */
function sameAddress(url: string): string {
  const parsed = new URL(url);
  parsed.hostname = canonicalHost(parsed.hostname) ?? parsed.hostname;
  parsed.hash = '';
  return parsed.href;
}
