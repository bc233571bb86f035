import type { ModelInfoOverrides } from '../core/providers/model-catalog.js';
import { parseRule } from '../core/permissions/rule-syntax.js';
import { hostAllowListProblems } from '../core/process/host-allow-list.js';
import { UsageError } from './usage-error.js';
import { MAX_PREVIEW_TIMEOUT_SECONDS } from '../core/preview/preview-timeout.js';

// Checks of single flag values: each returns the value as CliOptions holds it, or throws a UsageError naming the flag.

/** A permission rule from the command line, checked so a typo is a usage error rather than a rule that never matches. */
export function checkedRule(rule: string, effect: string): string {
  try {
    parseRule(rule);
  } catch (error) {
    throw new UsageError(`--${effect}: ${(error as Error).message}`);
  }
  return rule;
}

/** --sandbox-allow-host entries, checked so a typo is a usage error rather than a host never reached. */
export function checkedHosts(hosts: readonly string[]): string[] {
  const problems = hostAllowListProblems(hosts);
  if (problems.length > 0) throw new UsageError(`--sandbox-allow-host: ${problems.join('; ')}`);
  return [...hosts];
}

/** --auto-condense: a percentage ("60%", or 10 to 100) or a token count (1000 or more; "120k"). */
export function condenseTrigger(raw: string | undefined): { autoCondenseAt?: number; autoCondenseTokens?: number } {
  if (raw === undefined) return {};
  const text = raw.trim().toLowerCase();
  const tokens = /^(\d+(?:\.\d+)?)k$/.exec(text);
  const value = tokens ? Number(tokens[1]) * 1000 : Number(text.replace(/%$/, ''));
  const problem = `--auto-condense must be a percentage from 10 to 100 ("60%") or a number of tokens of 1000 or more ("120000", "120k"); got "${raw}"`;
  if (text === '' || text === '%' || !Number.isFinite(value)) throw new UsageError(problem);
  if (!tokens && (text.endsWith('%') || value <= 100)) {
    if (value < 10 || value > 100) throw new UsageError(problem);
    return { autoCondenseAt: value / 100 };
  }
  if (value < 1000 || !Number.isSafeInteger(Math.round(value))) throw new UsageError(problem);
  return { autoCondenseTokens: Math.round(value) };
}

/** A whole number, 0 or more. */
export function wholeCount(raw: string, flag: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number (0 or more); got "${raw}"`);
  return value;
}

export function positiveCost(raw: string | undefined): { maxCost?: number } {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new UsageError(`--max-cost must be a positive number of US dollars; got "${raw}"`);
  return { maxCost: value };
}

export function positiveNumber(raw: string | undefined, flag: string, key: keyof ModelInfoOverrides, whole: boolean): ModelInfoOverrides {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (whole && (!Number.isInteger(value) || value === 0))) {
    throw new UsageError(`${flag} must be a ${whole ? 'positive whole' : 'non-negative'} number; got "${raw}"`);
  }
  return { [key]: value };
}

/** `--preview-timeout S`: seconds a command preview may run (1 to 600). */
export function previewTimeout(raw: string | undefined): { commandPreviewTimeoutSeconds?: number } {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 1 || value > MAX_PREVIEW_TIMEOUT_SECONDS)
    throw new UsageError(`--preview-timeout must be a number of seconds from 1 to ${MAX_PREVIEW_TIMEOUT_SECONDS}; got "${raw}"`);
  return { commandPreviewTimeoutSeconds: value };
}

export function repeatLimit(raw: string | undefined): { maxRepeatedCalls?: number } {
  if (raw === undefined) return {};
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`--max-repeats must be a whole number, 0 or more; got "${raw}"`);
  return { maxRepeatedCalls: value };
}
