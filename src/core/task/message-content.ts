// The content of the messages the model is sent: an assistant message with native calls and its
// signed reasoning in place, and a user message's text and image parts.
import type { Base64Image, ContentPart, ImagePart, ProviderMessage, SignedReasoningPart } from '../providers/types.js';
import { serializeBlocks } from '../parse/serialize-blocks.js';
import type { ModelResponse, SignedReasoning } from '../log/conversation-events.js';

/** What the user side of a turn collects: text, and images after the result they belong to (XML protocol). */
export type UserPiece = string | ImagePart;

/** Tool calls of a response that carry a vendor id (native calls), in order. */
export function nativeCalls(event: ModelResponse): Array<{ id: string; name: string; params: Readonly<Record<string, string>>; signature?: string }> {
  return event.blocks.flatMap((b) =>
    b.kind === 'tool' && b.id !== undefined ? [{ id: b.id, name: b.name, params: b.params, ...(b.signature ? { signature: b.signature } : {}) }] : [],
  );
}

/**
 * An assistant message with native calls: the text and the calls, each piece of signed reasoning
 * in the place it came (before the text when it preceded every call, else after the call it
 * followed), as the vendors require it back.
 */
export function nativeAssistantContent(event: ModelResponse, calls: ReturnType<typeof nativeCalls>): ContentPart[] {
  const text = serializeBlocks(event.blocks.filter((b) => b.kind !== 'tool')).trim();
  const reasoning = (event.signedReasoning ?? []).flatMap((r) => {
    const part = reasoningPart(r);
    return part ? [{ part, afterCalls: Math.min(calls.length, Math.max(0, Math.floor(r.afterCalls ?? 0)) || 0) }] : [];
  });
  const reasoningAfter = (count: number) => reasoning.filter((r) => r.afterCalls === count).map((r) => r.part);
  return [
    ...reasoningAfter(0),
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...calls.flatMap((call, i) => [
      {
        type: 'tool_use' as const,
        id: call.id,
        name: call.name,
        input: call.params,
        ...(call.signature ? { signature: call.signature } : {}),
      },
      ...reasoningAfter(i + 1),
    ]),
  ];
}

/** A logged piece of signed reasoning as the part providers send; undefined when the log's entry is not whole (a hand-edited log). */
function reasoningPart(r: SignedReasoning): SignedReasoningPart | undefined {
  const isString = (value: unknown): value is string => typeof value === 'string';
  switch (r.type) {
    case 'redacted_thinking':
      return isString(r.data) ? { type: 'redacted_thinking', data: r.data } : undefined;
    case 'reasoning_item':
      return isString(r.id) && isString(r.encryptedContent) && r.encryptedContent !== '' && Array.isArray(r.summary)
        ? {
            type: 'reasoning_item',
            id: r.id,
            encryptedContent: r.encryptedContent,
            summary: r.summary.filter(isString),
            ...(isString(r.issuer) ? { issuer: r.issuer } : {}),
          }
        : undefined;
    default:
      return isString(r.text) && isString(r.signature) ? { type: 'thinking', text: r.text, signature: r.signature } : undefined;
  }
}

/** The images a user sent, as parts after the message's text (vision models only). */
export function userImages(images: readonly Base64Image[] | undefined, include: boolean | undefined): ImagePart[] {
  return include && images ? images.map((image) => ({ type: 'image' as const, ...image })) : [];
}

/** For a model that does not see the images (or a text-only projection), a note that they were sent. */
export function imagesNote(images: readonly Base64Image[] | undefined, include: boolean | undefined): string {
  if (!images || images.length === 0 || include) return '';
  return `\n\n[The user attached ${images.length === 1 ? 'an image' : `${images.length} images`}, which this model cannot see.]`;
}

/** The pieces as one string (text only, as the XML protocol always was) or as text and image parts. */
export function userContent(pieces: readonly UserPiece[]): string | ContentPart[] {
  if (pieces.every((p) => typeof p === 'string')) return pieces.join('\n\n');
  const parts: ContentPart[] = [];
  let text: string[] = [];
  for (const piece of [...pieces, undefined]) {
    if (typeof piece === 'string') {
      text.push(piece);
      continue;
    }
    if (text.length > 0) parts.push({ type: 'text', text: text.join('\n\n') });
    text = [];
    if (piece) parts.push(piece);
  }
  return parts;
}

export function asParts(content: string | readonly ContentPart[]): ContentPart[] {
  if (typeof content !== 'string') return [...content];
  return content ? [{ type: 'text', text: content }] : [];
}

export function joinContent(earlier: ProviderMessage['content'], content: string | readonly ContentPart[]): ProviderMessage['content'] {
  if (typeof content === 'string') return typeof earlier === 'string' ? `${earlier}\n\n${content}` : [...earlier, { type: 'text', text: content }];
  return [...asParts(earlier), ...content];
}
