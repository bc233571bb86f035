import type { UiMessage } from '../../src/shared/ui-messages.js';

/** A varied, realistic message list of any length, for the harness, tests and benchmarks. */
export function sampleMessages(count: number, startTs = 1_700_000_000_000): UiMessage[] {
  const messages: UiMessage[] = [];
  for (let i = 0; i < count; i++) {
    const id = `m${i}`;
    const ts = startTs + i * 1000;
    if (i === 0) {
      messages.push({ kind: 'task', id, seq: i, text: 'Add input validation to the signup form', ts });
      continue;
    }
    switch (i % 5) {
      case 0:
        messages.push({ kind: 'user', id, seq: i, text: `Follow-up ${i}: please also cover the edge cases.`, ts });
        break;
      case 1:
        messages.push({
          kind: 'assistant',
          id,
          text: `Step ${i}: I will look at \`src/form-${i}.ts\` next.\n\n- check the **schema**\n- then the handler\n\n\`\`\`ts\nconst value${i} = validate(input);\n\`\`\``,
          reasoning: i % 3 === 0 ? `The form at step ${i} probably lacks a schema.` : '',
          ts,
        });
        break;
      case 2:
        messages.push({ kind: 'tool', id, callId: `call-${i}`, tool: 'read_file', params: { path: `src/form-${i}.ts` }, status: 'done', output: `export const form${i} = {};\n`, ts });
        break;
      case 3:
        messages.push({
          kind: 'tool',
          id,
          callId: `call-${i}`,
          tool: 'replace_in_file',
          params: { path: `src/form-${i}.ts`, diff: `------- SEARCH\nexport const form${i} = {};\n=======\nexport const form${i} = { required: true };\n+++++++ REPLACE` },
          status: 'done',
          ts,
        });
        break;
      default:
        messages.push({ kind: 'notice', id, text: `Checkpoint ${i} saved.`, ts });
    }
  }
  return messages;
}
