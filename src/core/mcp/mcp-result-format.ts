import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Base64Image } from '../providers/types.js';
import { base64Bytes } from '../tool-kit/tool-images.js';

// Decoded size of base64 data; it moved to tool-images (images are no longer an MCP-only concern).
export { base64Bytes };

/** An image a tool returned (an image block, or an embedded image resource), base64 as the server sent it. */
type McpImage = Base64Image;

/** A `resource_link` block of a result. */
interface McpResourceLink {
  readonly uri: string;
  readonly name?: string;
  readonly mimeType?: string;
  readonly description?: string;
}

/** A tool result made ready for the model, with the facts the panel shows. */
interface McpFormattedResult {
  readonly text: string;
  readonly isError: boolean;
  readonly images: readonly McpImage[];
  /** The `structuredContent`, as indented JSON (capped like the text). */
  readonly structured?: string;
  readonly links: readonly McpResourceLink[];
}

/** Resource links kept as facts of one result; the text lists them all (within its limit). */
const MAX_LINK_FACTS = 100;

/** Characters of tool output passed on; the rest is cut with a note, so one call cannot flood the context. */
export const MCP_OUTPUT_LIMIT = 50_000;

type ContentBlock = CallToolResult['content'][number];
type ResourceContents = ReadResourceResult['contents'][number];

/**
 * Maps a CallToolResult to text: text joined, images and audio described, embedded resources
 * inlined, links listed. Images (and embedded image resources) are also collected, for vision models.
 */
export function formatToolResult(result: CallToolResult): McpFormattedResult {
  const parts: string[] = [];
  const links: string[] = [];
  const linkFacts: McpResourceLink[] = [];
  const images: McpImage[] = [];
  for (const block of result.content ?? []) {
    const part = formatBlock(block, links, images);
    if (part !== undefined) parts.push(part);
    if (block.type === 'resource_link' && linkFacts.length < MAX_LINK_FACTS) {
      linkFacts.push({
        uri: block.uri,
        ...(block.name ? { name: block.name } : {}),
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        ...(block.description ? { description: block.description } : {}),
      });
    }
  }
  const structured = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, 2) : undefined;
  // The spec asks servers to repeat the structured result as text; it is added only when no text block already carries it.
  if (structured !== undefined && !parts.some((part) => sameJson(part, result.structuredContent))) parts.push(`Structured result (JSON):\n${structured}`);
  if (links.length > 0) parts.push(`Resource links (read them with access_mcp_resource):\n${links.join('\n')}`);
  const text = parts.length > 0 ? parts.join('\n\n') : result.isError ? '(the tool reported an error without a message)' : '(the tool returned no content)';
  return {
    text: limit(text),
    isError: result.isError === true,
    images,
    ...(structured !== undefined ? { structured: limit(structured) } : {}),
    links: linkFacts,
  };
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** Maps a ReadResourceResult to text; binary contents are described, textual blobs decoded. */
export function formatResourceContents(result: ReadResourceResult): string {
  const parts = result.contents.map(formatResourceBody);
  return limit(parts.length > 0 ? parts.join('\n\n') : '(the resource is empty)');
}

function formatBlock(block: ContentBlock, links: string[], images: McpImage[]): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      images.push({ mimeType: block.mimeType, data: block.data });
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource':
      if (block.resource.mimeType?.startsWith('image/') && 'blob' in block.resource && typeof block.resource.blob === 'string') {
        images.push({ mimeType: block.resource.mimeType, data: block.resource.blob });
      }
      return formatResourceBody(block.resource);
    case 'resource_link':
      links.push(
        `- ${block.uri}${block.name ? ` (${block.name})` : ''}${block.mimeType ? ` [${block.mimeType}]` : ''}${block.description ? `: ${block.description}` : ''}`,
      );
      return undefined;
    default:
      return `[unsupported content: ${JSON.stringify(block).slice(0, 200)}]`;
  }
}

function formatResourceBody(contents: ResourceContents): string {
  const mime = contents.mimeType ? ` (${contents.mimeType})` : '';
  if ('text' in contents && typeof contents.text === 'string') return `[resource: ${contents.uri}${mime}]\n${contents.text}`;
  const blob = 'blob' in contents && typeof contents.blob === 'string' ? contents.blob : '';
  const decoded = isTextual(contents.mimeType) ? decodeUtf8(blob) : undefined;
  if (decoded !== undefined) return `[resource: ${contents.uri}${mime}]\n${decoded}`;
  return `[resource: ${contents.uri}${mime}, binary, ${base64Bytes(blob)} bytes]`;
}

function isTextual(mimeType: string | undefined): boolean {
  if (!mimeType) return false;
  return /^text\//.test(mimeType) || /[/+](json|xml|yaml|javascript|typescript|csv|markdown)$/.test(mimeType);
}

function decodeUtf8(base64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/** One progress report as a line of the call's live output: "Progress 3/5 (60%): message". */
export function progressLine(progress: { readonly progress: number; readonly total?: number; readonly message?: string }): string {
  const share = progress.total !== undefined && progress.total > 0 ? `/${progress.total} (${Math.round((progress.progress / progress.total) * 100)}%)` : '';
  const message = progress.message ? `: ${progress.message.replace(/\s+/g, ' ').slice(0, 500)}` : '';
  return `Progress ${progress.progress}${share}${message}\n`;
}

function limit(text: string): string {
  if (text.length <= MCP_OUTPUT_LIMIT) return text;
  return `${text.slice(0, MCP_OUTPUT_LIMIT)}\n\n[Output cut at ${MCP_OUTPUT_LIMIT} of ${text.length} characters.]`;
}
