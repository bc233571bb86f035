/** What the order needs of a folder the walk read (see WalkedFolder). */
export interface OrderedFolder {
  /** Index of its first file among the paths the walk pushed; its files are the next `names.length`. */
  readonly first: number;
  readonly names: readonly string[];
  /** Its subfolders' indices. */
  readonly folders: ReadonlyMap<string, number>;
  /** Its place in the order the walk read the folders. */
  readonly read: number;
}

/**
 * The order in which a scan can write folder listings while the files are still being statted.
 * A folder's listing needs its files' stats and its subfolders' listings. The walk reads depth
 * first, so a folder and everything below it are read one after another, and their files are
 * one run of paths: from the folder's first file to the end of its subtree's. Helpers stat paths
 * from the first on, the main thread from the last back: a folder is ready once its run is
 * within the done prefix, or starts within the done suffix. Either way, folders come after their
 * subfolders, each once.
 */
export class AssemblyOrder {
  /** Folder indices by the end of their run, a subfolder before its parent where the ends are equal. */
  private readonly byEnd: number[];
  /** Folder indices, the last read first. */
  private readonly backwards: number[];
  private readonly end: Uint32Array;
  private readonly given: Uint8Array;
  private nextByEnd = 0;
  private nextBackwards = 0;

  constructor(private readonly folders: readonly OrderedFolder[]) {
    const count = folders.length;
    this.backwards = new Array<number>(count);
    for (let i = 0; i < count; i++) this.backwards[count - 1 - (folders[i] as OrderedFolder).read] = i;
    // Subfolders are read after their parent: going backwards meets them first.
    this.end = new Uint32Array(count);
    for (const i of this.backwards) {
      const folder = folders[i] as OrderedFolder;
      let end = folder.first + folder.names.length;
      for (const child of folder.folders.values()) end = Math.max(end, this.end[child] as number);
      this.end[i] = end;
    }
    const readOf = (i: number) => (folders[i] as OrderedFolder).read;
    this.byEnd = Array.from(this.backwards).sort((a, b) => (this.end[a] as number) - (this.end[b] as number) || readOf(b) - readOf(a));
    this.given = new Uint8Array(count);
  }

  /**
   * Folders not given before whose files are all before `prefixEnd` or from `suffixStart` on, each
   * after its subfolders. Once the two meet, every path is done and every folder left is given.
   */
  *ready(prefixEnd: number, suffixStart: number): Generator<number> {
    const { backwards, byEnd } = this;
    const doneUpTo = prefixEnd >= suffixStart ? Number.POSITIVE_INFINITY : prefixEnd;
    while (this.nextBackwards < backwards.length) {
      const i = backwards[this.nextBackwards] as number;
      if ((this.folders[i] as OrderedFolder).first < suffixStart) break;
      this.nextBackwards++;
      if (this.give(i)) yield i;
    }
    while (this.nextByEnd < byEnd.length) {
      const i = byEnd[this.nextByEnd] as number;
      if ((this.end[i] as number) > doneUpTo) break;
      this.nextByEnd++;
      if (this.give(i)) yield i;
    }
  }

  private give(i: number): boolean {
    if (this.given[i] === 1) return false;
    this.given[i] = 1;
    return true;
  }
}
