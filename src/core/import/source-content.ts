// What a stored message's content holds, read as Smith keeps it: images held inline (within Smith's
// limits), a tool result's text and images, and a denial worded by Claude Code or Cline.
import type { AssistantBlock } from '../parse/types.js';
import type { Base64Image } from '../providers/types.js';
import { TOOL_RESULT_IMAGE_BYTES } from '../tool-kit/tool-images.js';
import type { SourceBlock } from './import-types.js';

/** Neighbouring text blocks as one, as a reply's text reads. */
export function mergeTexts(blocks: readonly AssistantBlock[]): AssistantBlock[] {
  const merged: AssistantBlock[] = [];
  for (const block of blocks) {
    const last = merged.at(-1);
    if (block.kind === 'text' && last?.kind === 'text') merged[merged.length - 1] = { ...last, text: `${last.text}\n\n${block.text}` };
    else merged.push(block);
  }
  return merged;
}

/** An image block held inline (base64); undefined for one the session only refers to. */
export function imageOf(block: SourceBlock): Base64Image | undefined {
  const source = block.source as Record<string, unknown> | undefined;
  if (source?.type !== 'base64' || typeof source.data !== 'string' || typeof source.media_type !== 'string') return undefined;
  return { mimeType: source.media_type, data: source.data };
}

/** A tool_result's content: its text, and the images it held inline. */
export function resultContent(content: unknown): { text: string; images: Base64Image[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  if (!Array.isArray(content)) return { text: '', images: [] };
  const texts: string[] = [];
  const images: Base64Image[] = [];
  for (const part of content as SourceBlock[]) {
    if (part?.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part?.type === 'image') {
      const image = imageOf(part);
      const fits = image !== undefined && base64Bytes(image.data) + images.reduce((sum, i) => sum + base64Bytes(i.data), 0) <= TOOL_RESULT_IMAGE_BYTES;
      if (image && fits) images.push(image);
      texts.push(image ? (fits ? `[image ${image.mimeType}]` : `[an image ${image.mimeType}, too large to keep]`) : '[an image the session does not hold]');
    }
  }
  return { text: texts.join('\n'), images };
}

/**
 * The feedback of a call the user denied in the other agent ('' when they gave none); undefined
 * when the result is not a denial. Claude Code and Cline word a denial each their own way.
 */
export function deniedFeedback(text: string): string | undefined {
  if (/^The user doesn't want to proceed with this tool use\./.test(text)) {
    const said = /the user said:\n([\s\S]*)$/i.exec(text);
    return said ? said[1]!.trim() : '';
  }
  if (/^The user denied this operation\./.test(text)) {
    const feedback = /<feedback>\n?([\s\S]*?)\n?<\/feedback>/.exec(text);
    return feedback ? feedback[1]!.trim() : '';
  }
  return undefined;
}

/** The bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}
