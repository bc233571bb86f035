// An ACP prompt (text, resource links, embedded resources, images) as a Smith message: the text the
// user wrote, with each linked file as an @-mention (attached by the mention machinery with its
// guards: workspace boundary, .smithignore, Read rules, size cap), each embedded resource as a
// context block judged by the same guards, and each image checked as --image checks one.
import { createHash } from 'node:crypto';
import { basename, isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { imageForModel } from '../../core/context/image-files.js';
import { findMentions, MAX_MENTION_CHARS } from '../../core/context/mentions.js';
import type { Attachment } from '../../core/log/attachment.js';
import type { Base64Image } from '../../core/providers/types.js';

/** A prompt read: the message text, what the client embedded, and what could not be used (with why). */
export interface AcpPromptMessage {
  readonly text: string;
  /** The embedded resources as one `<context>` block, '' when there are none. */
  readonly context: string;
  readonly attachments: readonly Attachment[];
  readonly images: readonly Base64Image[];
  /** Parts not attached, each a sentence saying why (told to the model and the user). */
  readonly problems: readonly string[];
}

/** Why a file's content may not be given to the model (ignored, withheld by a Read rule), or undefined. */
export type ContentGuard = (absolutePath: string) => string | undefined;

/** Reads the prompt's blocks in order; `cwd` makes file links workspace-relative mentions. */
export function acpPromptMessage(blocks: readonly ContentBlock[], cwd: string, guard: ContentGuard): AcpPromptMessage {
  let text = '';
  const contexts: string[] = [];
  const attachments: Attachment[] = [];
  const images: Base64Image[] = [];
  const problems: string[] = [];
  // A mention needs white space on both sides, or it would take in the text around it.
  let afterLink = false;
  const append = (piece: string, isLink: boolean) => {
    const apart = (isLink || afterLink) && text !== '' && !/\s$/.test(text) && !/^\s/.test(piece);
    text += apart ? ` ${piece}` : piece;
    afterLink = isLink;
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        append(block.text, false);
        break;
      case 'resource_link':
        append(linkText(block.uri, block.name, cwd), true);
        break;
      case 'resource': {
        const embedded = embeddedResource(block.resource, cwd, guard);
        if ('problem' in embedded) problems.push(embedded.problem);
        else if ('image' in embedded) {
          images.push(embedded.image);
          attachments.push(embedded.attachment);
        } else {
          contexts.push(embedded.block);
          attachments.push(embedded.attachment);
        }
        break;
      }
      case 'image': {
        const name = block.uri ? basename(block.uri) : `image ${images.length + 1}`;
        const checked = imageForModel(Buffer.from(block.data, 'base64'), name);
        if ('problem' in checked) problems.push(`The image was not attached: ${checked.problem}.`);
        else {
          images.push(checked.image);
          attachments.push(checked.attachment);
        }
        break;
      }
      case 'audio':
        problems.push('Audio was not attached: Smith does not take audio.');
        break;
    }
  }
  if (problems.length > 0) contexts.push(`<mention_problems>\n${problems.join('\n')}\n</mention_problems>`);
  return { text: text.trim(), context: contexts.length === 0 ? '' : `<context>\n${contexts.join('\n\n')}\n</context>`, attachments, images, problems };
}

/** A file path as the user may mention it: workspace-relative inside the workspace, else absolute. */
function shownPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : absolute;
}

/** The path a `file:` URI names, or undefined for another scheme or a malformed URI. */
function filePath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** A link as message text: an @-mention for a file the mention syntax can spell, else the link as written. */
function linkText(uri: string, name: string, cwd: string): string {
  const path = filePath(uri);
  if (path === undefined) return `${name} <${uri}>`;
  const ref = shownPath(path, cwd);
  const mentions = findMentions(`@${ref}`);
  // A path with spaces or brackets cannot be a mention: it is named, and the model reads it with its tools.
  return mentions.length === 1 && mentions[0] === ref ? `@${ref}` : `the file "${ref}"`;
}

type EmbeddedResource = Extract<ContentBlock, { type: 'resource' }>['resource'];

/** An embedded resource as a context block or an image, or why it was not used. */
function embeddedResource(
  resource: EmbeddedResource,
  cwd: string,
  guard: ContentGuard,
): { block: string; attachment: Attachment } | { image: Base64Image; attachment: Attachment } | { problem: string } {
  const path = filePath(resource.uri);
  const ref = path === undefined ? resource.uri : shownPath(path, cwd);
  if (path !== undefined) {
    const refusal = guard(path);
    if (refusal !== undefined) return { problem: `${ref} was not attached: ${refusal}.` };
  }
  if ('blob' in resource) {
    if (!resource.mimeType?.startsWith('image/'))
      return { problem: `${ref} was not attached: binary content (${resource.mimeType ?? 'unknown type'}) is not taken.` };
    const checked = imageForModel(Buffer.from(resource.blob, 'base64'), basename(ref));
    return 'problem' in checked ? { problem: `${ref} was not attached: ${checked.problem}.` } : checked;
  }
  const cut = resource.text.length > MAX_MENTION_CHARS;
  const body = cut ? `${resource.text.slice(0, MAX_MENTION_CHARS)}\n[Cut at ${MAX_MENTION_CHARS} characters: read the rest with the tools.]` : resource.text;
  const attribute = ref.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return {
    block: `<file_content path="${attribute}">\n${body}\n</file_content>`,
    attachment: { kind: 'file', ref, sha256: createHash('sha256').update(body).digest('hex'), chars: body.length, truncated: cut },
  };
}
