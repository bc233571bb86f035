// The images of the notebook lines read_file shows, for a model that takes images: at most
// MAX_NOTEBOOK_IMAGES, each a real PNG, JPEG, GIF or WebP under the per-image limit, all together
// within a tool result's image budget. The note names each attached image and each one left out.
import { imageTypeOf, MAX_IMAGE_BYTES } from '../context/image-files.js';
import type { Base64Image } from '../providers/types.js';
import { base64Bytes, limitToolImages } from '../tool-kit/tool-images.js';
import type { OutputImage } from './notebook-outputs.js';

/** Images of one read_file of a notebook sent at most; the others are described by their lines. */
export const MAX_NOTEBOOK_IMAGES = 8;

/** The images to attach and the note that says which. */
export function notebookImagesForModel(shown: readonly OutputImage[]): { readonly images: Base64Image[]; readonly note: string } {
  const candidates: { image: Base64Image; source: OutputImage }[] = [];
  const left: string[] = [];
  for (const source of shown) {
    const name = `cell ${source.cell} output ${source.output}`;
    if (candidates.length >= MAX_NOTEBOOK_IMAGES) {
      left.push(`${name} (at most ${MAX_NOTEBOOK_IMAGES} images per read; read a later line range for more)`);
      continue;
    }
    const bytes = Buffer.from(source.data.slice(0, 64), 'base64');
    if (imageTypeOf(bytes) !== source.mimeType) {
      left.push(`${name} (its data is not a ${source.mimeType} image)`);
      continue;
    }
    if (base64Bytes(source.data) > MAX_IMAGE_BYTES) {
      left.push(`${name} (over ${MAX_IMAGE_BYTES / 1024 / 1024} MB)`);
      continue;
    }
    candidates.push({ image: { mimeType: source.mimeType, data: source.data }, source });
  }
  const limited = limitToolImages(candidates.map((c) => c.image));
  const kept = new Set(limited.images.map((image) => image.data));
  const attached = candidates.filter((c) => kept.has(c.image.data)).map((c) => `cell ${c.source.cell} output ${c.source.output} (${c.source.label})`);
  const lines = [
    ...(attached.length > 0 ? [`[Attached for you to see, in order: ${attached.join('; ')}.]`] : []),
    ...(left.length > 0 ? [`[Images not attached: ${left.join('; ')}.]`] : []),
  ];
  return { images: limited.images, note: (lines.length > 0 ? `\n\n${lines.join('\n')}` : '') + limited.note };
}
