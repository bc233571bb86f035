import type { Base64Image } from '../providers/types.js';

/** The image types every vision vendor takes inline (Anthropic accepts exactly these; Gemini converts GIF away). */
const MODEL_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Most image bytes (decoded) one tool result keeps. It bounds the log line and the request: the
 * vendors cap a single image at about 5 MB and a request at 20 MB (Gemini) to 32 MB (Anthropic).
 */
export const TOOL_RESULT_IMAGE_BYTES = 5 * 1024 * 1024;

/** The images a tool result keeps, and a note for the model (empty when nothing was dropped). */
interface LimitedImages {
  readonly images: Base64Image[];
  readonly note: string;
}

/**
 * Keeps the images a model can take, in order, up to TOOL_RESULT_IMAGE_BYTES in all; the note
 * names what was dropped and why, so the model knows the text description is all it gets of them.
 */
export function limitToolImages(images: readonly Base64Image[]): LimitedImages {
  const kept: Base64Image[] = [];
  const unsupported: string[] = [];
  const oversize: number[] = [];
  let total = 0;
  for (const image of images) {
    const normalized = normalizeImage(image);
    if (!MODEL_IMAGE_TYPES.has(normalized.mimeType)) {
      unsupported.push(normalized.mimeType || 'no type');
      continue;
    }
    const bytes = base64Bytes(normalized.data);
    if (bytes === 0) continue;
    if (total + bytes > TOOL_RESULT_IMAGE_BYTES) {
      oversize.push(bytes);
      continue;
    }
    total += bytes;
    kept.push(normalized);
  }
  const reasons = [
    ...(unsupported.length > 0 ? [`${count(unsupported.length)} of a type models do not accept (${[...new Set(unsupported)].join(', ')})`] : []),
    ...(oversize.length > 0
      ? [
          `${count(oversize.length)} (${megabytes(oversize.reduce((a, b) => a + b, 0))}) over the ${megabytes(TOOL_RESULT_IMAGE_BYTES)} limit for the images of one tool result`,
        ]
      : []),
  ];
  return { images: kept, note: reasons.length > 0 ? `\n\n[Not shown to you: ${reasons.join('; ')}.]` : '' };
}

/** Lower-case type (`image/jpg` as `image/jpeg`) and bare base64, for servers that send a data URL. */
function normalizeImage(image: Base64Image): Base64Image {
  const mimeType = image.mimeType
    .trim()
    .toLowerCase()
    .replace(/^image\/jpg$/, 'image/jpeg');
  const data = image.data.replace(/^data:[^,]*;base64,/, '').replace(/\s/g, '');
  return { mimeType, data };
}

function count(n: number): string {
  return n === 1 ? '1 image' : `${n} images`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** Decoded size of base64 data. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
