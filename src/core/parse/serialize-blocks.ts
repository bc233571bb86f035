import type { AssistantBlock } from './types.js';

/**
 * Writes blocks back as the assistant's message text. The engine keeps the message up to the
 * first tool call only, so the model's context shows exactly what was acted on.
 */
export function serializeBlocks(blocks: readonly AssistantBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.kind) {
        case 'text':
          return block.text;
        case 'thinking':
          return `<thinking>\n${block.text}\n</thinking>`;
        case 'tool': {
          const params = Object.entries(block.params).map(([name, value]) => {
            const raw = name === 'content' || name === 'diff';
            return raw ? `<${name}>\n${value}\n</${name}>` : `<${name}>${value}</${name}>`;
          });
          return [`<${block.name}>`, ...params, `</${block.name}>`].join('\n');
        }
        default:
          // A new block kind fails the type check here rather than vanishing from the message.
          return block satisfies never;
      }
    })
    .join('\n\n');
}
