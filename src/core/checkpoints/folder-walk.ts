import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import {
  ALWAYS_SKIPPED_NAMES,
  ancestorIgnoreRules,
  IGNORE_FILE_BYTES,
  IGNORE_FILE_NAMES,
  ignoreFileText,
  type IgnoreRuleSet,
  judge,
  pathUnder,
  ruleSet,
} from '../workspace/file-listing.js';
import type { IgnorePolicy } from '../workspace/ignore-policy.js';
import { readRegularFileHeadSync } from '../workspace/regular-file.js';
import { type CachedEntry, type FolderState, type IgnoreMemo, joinRel } from './folder-state.js';

/** ALWAYS_SKIPPED_NAMES, read once: the walk asks it of every entry, and an imported binding is a getter call under a CommonJS transform. */
const SKIPPED_NAMES = ALWAYS_SKIPPED_NAMES;

/** Entries handled between two yields to the event loop, so a big scan never stalls streaming. */
export const BATCH = 256;

// What the ignore rules said of a name; files and folders apart, since the same name may be
// judged differently as a folder ("build/" excludes only folders).
const FILE_KEPT = 1;
const FILE_EXCLUDED = 2;
const FOLDER_KEPT = 3;
const FOLDER_EXCLUDED = 4;
/** Kept although a rule file excluded it (a deeper rule re-included it): that file has no say inside. */
const FOLDER_KEPT_OVERRULED = 5;

/** One folder the walk read. */
export interface WalkedFolder {
  readonly rel: string;
  /** Its absolute path with a trailing separator. */
  readonly prefix: string;
  /** The folder's state after the previous scan, if it was scanned then. */
  readonly previous: FolderState | undefined;
  readonly ignore: IgnoreMemo;
  /** Entries to stat (everything kept that is not a folder to enter), pushed to the stat queue from index `first` on. */
  readonly names: string[];
  readonly first: number;
  /** Subfolders entered, by name, with their index in the walk's folders (always after this one's). */
  readonly folders: Map<string, number>;
  /** Its place in the order the folders were read (depth first: a folder's subtree is read right after it). */
  readonly read: number;
}

/** Where the walk sends the absolute path of every entry to stat, as it finds them. */
interface StatSink {
  /** `listedAsFile`: the folder listing says it is a regular file; `previous`: the previous scan's entry of that name. */
  push(path: string, listedAsFile: boolean, previous: CachedEntry | undefined): void;
  /** Told of each entry the walk leaves out (an always-skipped name, or excluded by the rules or the policy); the walk does not enter it. */
  leftOut?(rel: string, absolute: string): void;
}

/**
 * Reads the folders of the workspace that list_files would show, as listWorkspaceFiles does
 * (the same ignore files, rules, policy and always-skipped names; links are never followed), but
 * without ordering the result, and judging a name again only when it is new or the rules changed.
 * Folders named .git are never entered. Returns the folders read, indexed in the order they were
 * found, which puts every folder after its parent.
 */
export async function walkFolders(
  root: string,
  policy: IgnorePolicy,
  previous: FolderState | undefined,
  sink: StatSink,
  signal?: AbortSignal,
): Promise<WalkedFolder[]> {
  const rootRules = sameSets(await ancestorIgnoreRules(root, root), previous?.ignore?.rules ?? []);
  const walker = new Walker(policy, sink, signal);
  const stack: Pending[] = [{ index: 0, rel: '', prefix: root.endsWith(sep) ? root : root + sep, previous, rules: rootRules }];
  for (let folder = stack.pop(); folder; folder = stack.pop()) await walker.read(folder, stack);
  return walker.folders;
}

/** The walk's progress: the folders read so far and the count of paths handed to the sink. */
class Walker {
  readonly folders: WalkedFolder[] = [];
  private pushed = 0;
  private found = 1;
  private readCount = 0;
  private sinceYield = 0;

  constructor(
    private readonly policy: IgnorePolicy,
    private readonly sink: StatSink,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Reads one folder: its entries to stat go to the sink, its subfolders to enter onto `stack`. */
  async read(folder: Pending, stack: Pending[]): Promise<void> {
    const { rel, prefix } = folder;
    const dirents = readFolder(prefix);
    const memo = folder.previous?.ignore;
    const own = ownRules(prefix, rel, dirents, memo?.own);
    const rules = own ? [...folder.rules, own] : folder.rules;
    const known = memo && sameArray(memo.rules, rules) ? memo.verdicts : undefined;
    // Made only when a verdict is not the remembered one: an unchanged folder keeps its map.
    let fresh = known ? undefined : new Map<string, number>();
    let judged = 0;
    const names: string[] = [];
    const folders = new Map<string, number>();
    const first = this.pushed;
    for (let i = 0; i < dirents.length; i++) {
      const dirent = dirents[i] as Dirent;
      if (++this.sinceYield === BATCH) {
        this.sinceYield = 0;
        await yieldToEventLoop();
        this.signal?.throwIfAborted();
      }
      const name = dirent.name;
      const absolute = prefix + name;
      if (SKIPPED_NAMES.has(name)) {
        this.sink.leftOut?.(joinRel(rel, name), absolute);
        continue;
      }
      // Most entries know their type already; only the others (links, unknown types) cost a stat.
      const listedAsFile = dirent.isFile();
      const { isFolder, isLink } = dirent.isDirectory() ? FOLDER : listedAsFile ? FILE : kindOf(dirent, absolute);
      let verdict = known?.get(name);
      if (verdict === undefined || isFolder !== verdict >= FOLDER_KEPT) {
        verdict = judgeEntry(rules, this.policy, joinRel(rel, name), name, absolute, isFolder);
        fresh ??= rememberedUpTo(dirents, i, known);
      }
      fresh?.set(name, verdict);
      judged++;
      if (verdict === FILE_EXCLUDED || verdict === FOLDER_EXCLUDED) {
        this.sink.leftOut?.(joinRel(rel, name), absolute);
        continue;
      }
      if (isFolder && !isLink) {
        const childRel = joinRel(rel, name);
        const index = this.found++;
        folders.set(name, index);
        stack.push({
          index,
          rel: childRel,
          prefix: absolute + sep,
          previous: folder.previous?.folders.get(name),
          rules: verdict === FOLDER_KEPT_OVERRULED ? innerRules(rules, childRel) : rules,
        });
        continue;
      }
      names.push(name);
      this.sink.push(absolute, listedAsFile, folder.previous?.files.get(name));
      this.pushed++;
    }
    // Every verdict was remembered; names that are gone are dropped so the map cannot grow without end.
    const verdicts = fresh ?? (judged === known?.size ? known : rememberedUpTo(dirents, dirents.length, known));
    const ignore = memo && verdicts === memo.verdicts && memo.own === own ? memo : { rules, own, verdicts };
    this.folders[folder.index] = { rel, prefix, previous: folder.previous, ignore, names, first, folders, read: this.readCount++ };
  }
}

/** The remembered verdicts of the names before `end`, which were all found in `known`. */
function rememberedUpTo(dirents: readonly Dirent[], end: number, known: ReadonlyMap<string, number> | undefined): Map<string, number> {
  const verdicts = new Map<string, number>();
  for (let i = 0; i < end; i++) {
    const name = (dirents[i] as Dirent).name;
    const verdict = known?.get(name);
    if (verdict !== undefined) verdicts.set(name, verdict);
  }
  return verdicts;
}

/** A folder found but not read yet. */
interface Pending {
  readonly index: number;
  readonly rel: string;
  readonly prefix: string;
  readonly previous: FolderState | undefined;
  /** The rules in force inside it, before its own ignore files. */
  readonly rules: readonly IgnoreRuleSet[];
}

const FOLDER = { isFolder: true, isLink: false };
const FILE = { isFolder: false, isLink: false };

function readFolder(prefix: string): Dirent[] {
  try {
    return readdirSync(prefix, { withFileTypes: true });
  } catch {
    return []; // unreadable folders (permissions, races with deletion) are simply not listed
  }
}

/** The folder's own ignore files as one rule set, the previous scan's object when the text is the same. */
function ownRules(prefix: string, rel: string, dirents: readonly Dirent[], before: IgnoreRuleSet | undefined): IgnoreRuleSet | undefined {
  const texts: string[] = [];
  for (const name of IGNORE_FILE_NAMES) {
    if (!dirents.some((d) => d.name === name)) continue;
    try {
      texts.push(ignoreFileText(readRegularFileHeadSync(prefix + name, IGNORE_FILE_BYTES + 1).bytes));
    } catch {
      // unreadable or not a regular file: no rules, as in listWorkspaceFiles
    }
  }
  if (texts.length === 0) return undefined;
  const text = texts.join('\n');
  return before?.text === text ? before : ruleSet(rel, text);
}

function judgeEntry(rules: readonly IgnoreRuleSet[], policy: IgnorePolicy, rel: string, name: string, absolute: string, isFolder: boolean): number {
  const verdict = judge(rules, rel, name, isFolder);
  // The policy is a fixed set of rules for the store's life (a changed .smithignore means a new
  // store), so its answer is remembered with the others.
  if (verdict.excluded || policy.isIgnored(absolute)) return isFolder ? FOLDER_EXCLUDED : FILE_EXCLUDED;
  if (!isFolder) return FILE_KEPT;
  return verdict.overruled ? FOLDER_KEPT_OVERRULED : FOLDER_KEPT;
}

/** The rules in force inside a re-included folder: a rule file that excluded it has no say there. */
function innerRules(rules: readonly IgnoreRuleSet[], rel: string): IgnoreRuleSet[] {
  return rules.filter((set) => !set.matcher.test(`${pathUnder(set.base, rel)}/`).ignored);
}

function kindOf(dirent: Dirent, absolute: string): { isFolder: boolean; isLink: boolean } {
  // Links are judged as what they point to; some file systems report no type at all.
  let isLink = dirent.isSymbolicLink();
  let isFolder = false;
  try {
    isLink ||= lstatSync(absolute).isSymbolicLink();
  } catch {
    // gone since it was listed
  }
  try {
    isFolder = statSync(absolute).isDirectory();
  } catch {
    // a dangling link, or gone
  }
  return { isFolder, isLink };
}

/** The freshly read sets, each replaced by the previous scan's object when base and text are the same. */
function sameSets(fresh: readonly IgnoreRuleSet[], before: readonly IgnoreRuleSet[]): IgnoreRuleSet[] {
  return fresh.map((set) => before.find((old) => old.base === set.base && old.text === set.text) ?? set);
}

function sameArray<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
