// Buffer imported, not the global: the global is a getter, and a first checkpoint encodes a listing a folder.
import { Buffer } from 'node:buffer';

/**
 * A folder listing as stored: [name, 'f'|'x'|'l'|'d'|'s', hash, size] sorted by name. 's' names a
 * file the snapshot saw but did not keep (too big, unreadable): a restore never deletes it.
 */
export type TreeRow = [name: string, kind: 'f' | 'x' | 'l' | 'd' | 's', hash: string, size: number];

// A listing is binary: NUL, a version byte, then a row after another: the kind (its letter's
// code), the name's UTF-8 length (LEB128) and bytes, the hash's 32 bytes (not for 's'), and the
// size (LEB128; files and links only). Hex hashes in JSON were twice the bytes and most of a first
// checkpoint's deflating. Listings an earlier Smith wrote as JSON (they start with '[') are still read.
const MARK = 0;
const VERSION = 2;
const HASH_BYTES = 32;
const KINDS: Record<number, TreeRow[1]> = { 102: 'f', 120: 'x', 108: 'l', 100: 'd', 115: 's' };

function hasHash(kind: TreeRow[1]): boolean {
  return kind !== 's';
}

function hasSize(kind: TreeRow[1]): boolean {
  return kind === 'f' || kind === 'x' || kind === 'l';
}

/**
 * Writes a listing's rows (given in order) into one growing buffer: a first checkpoint writes a
 * listing a folder, and rows made as arrays first were a tenth of what it allocated.
 */
export class ListingWriter {
  private buffer: Buffer;
  private at = 2;

  constructor(rows: number) {
    this.buffer = Buffer.allocUnsafe(2 + rows * 64);
    this.buffer[0] = MARK;
    this.buffer[1] = VERSION;
  }

  row(name: string, kind: TreeRow[1], hash: string, size: number): void {
    const nameBytes = Buffer.byteLength(name, 'utf8');
    this.room(1 + 10 + nameBytes + HASH_BYTES + 10);
    const buffer = this.buffer;
    buffer[this.at++] = kind.charCodeAt(0);
    this.number(nameBytes);
    this.at += buffer.write(name, this.at, 'utf8');
    if (hasHash(kind)) {
      if (buffer.write(hash, this.at, HASH_BYTES, 'hex') !== HASH_BYTES) throw new Error(`not a content hash: ${hash}`);
      this.at += HASH_BYTES;
    }
    if (hasSize(kind)) this.number(size);
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }

  /** A LEB128 number (arithmetic, not bit operations: sizes may pass 2^31). */
  private number(value: number): void {
    let rest = value;
    while (rest >= 128) {
      this.buffer[this.at++] = (rest % 128) | 128;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.at++] = rest;
  }
}

/** The bytes of a listing's rows (already in order). */
export function encodeListing(rows: readonly TreeRow[]): Buffer {
  const writer = new ListingWriter(rows.length);
  for (const [name, kind, hash, size] of rows) writer.row(name, kind, hash, size);
  return writer.bytes();
}

/** The rows of a listing's bytes, in either format; throws a clear error when they are not a listing. */
export function decodeListing(bytes: Buffer): TreeRow[] {
  if (bytes[0] !== MARK) return JSON.parse(bytes.toString('utf8')) as TreeRow[];
  if (bytes[1] !== VERSION) throw new Error(`a checkpoint listing of an unknown version (${bytes[1] ?? 'none'})`);
  const rows: TreeRow[] = [];
  let at = 2;
  const readNumber = (): number => {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      if (at >= bytes.length || scale > 2 ** 49) throw new Error('a checkpoint listing is cut short');
      const byte = bytes[at++] as number;
      value += (byte & 127) * scale;
      if (byte < 128) return value;
    }
  };
  while (at < bytes.length) {
    const kind = KINDS[bytes[at++] as number];
    if (!kind) throw new Error('a checkpoint listing holds a row of an unknown kind');
    const nameBytes = readNumber();
    const nameEnd = at + nameBytes;
    const hashEnd = nameEnd + (hasHash(kind) ? HASH_BYTES : 0);
    if (hashEnd > bytes.length) throw new Error('a checkpoint listing is cut short');
    const name = bytes.toString('utf8', at, nameEnd);
    const hash = hasHash(kind) ? bytes.toString('hex', nameEnd, hashEnd) : '';
    at = hashEnd;
    rows.push([name, kind, hash, hasSize(kind) ? readNumber() : 0]);
  }
  return rows;
}
