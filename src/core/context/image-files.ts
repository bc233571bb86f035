import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { Base64Image } from '../providers/types.js';
import { readRegularFile } from '../workspace/regular-file.js';
import type { Attachment } from '../log/attachment.js';

/**
 * Largest image Smith sends: the vendors cap one image at about 5 MB (Anthropic exactly 5 MB of
 * base64-decoded data). Smith does not re-encode images; a larger one is refused with its size.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image type of some bytes from their signature, for the four types every vision vendor takes. */
export function imageTypeOf(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

/** An image ready for a vision model, or why it cannot be sent. */
type ImageForModel = { readonly image: Base64Image; readonly attachment: Attachment } | { readonly problem: string };

/** Checks image bytes (type by signature, size) and prepares them for the model. */
export function imageForModel(bytes: Buffer, name: string): ImageForModel {
  const mimeType = imageTypeOf(bytes);
  if (!mimeType) return { problem: `${name} is not a PNG, JPEG, GIF or WebP image` };
  if (bytes.length > MAX_IMAGE_BYTES) {
    return {
      problem: `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; images up to ${MAX_IMAGE_BYTES / 1024 / 1024} MB can be sent (Smith does not downscale them)`,
    };
  }
  return {
    image: { mimeType, data: bytes.toString('base64') },
    attachment: { kind: 'image', ref: name, sha256: createHash('sha256').update(bytes).digest('hex'), chars: bytes.length, truncated: false },
  };
}

/** Reads an image file for a message (`--image FILE`, an attached file in the panel). */
export async function readImageFile(path: string): Promise<ImageForModel> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (error) {
    return { problem: `${path} could not be read: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}` };
  }
  return imageForModel(bytes, basename(path));
}
