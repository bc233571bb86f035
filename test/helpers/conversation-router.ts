import type { RecordedRequest, ScriptedReply, ScriptedReplySource } from '../fixtures/scripted-llm-server.js';

type Messages = Array<{ role: string; content: unknown }>;

/** The text of the first user message of an OpenAI-format request (Chat Completions or Responses API): which conversation it belongs to. */
export function firstUserText(request: RecordedRequest): string {
  const messages = (request.format === 'openai-responses' ? request.body.input : request.body.messages) as Messages;
  const content = messages.find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

/**
 * Replies for several conversations the scripted server answers at once (a task and its
 * sub-agents): each request gets the next reply of the conversation whose first user message
 * contains its key; `onRequest` sees which conversation asked. Enqueue `replies()` on the server.
 */
export function conversationRouter(
  scripts: Record<string, ScriptedReply[]>,
  onRequest: (key: string) => void = () => {},
): { replies(): ScriptedReplySource[] } {
  const keys = Object.keys(scripts);
  const total = keys.reduce((n, key) => n + scripts[key]!.length, 0);
  const route = (request: RecordedRequest): ScriptedReply => {
    const first = firstUserText(request);
    const key = keys.find((k) => first.includes(k));
    if (key === undefined) throw new Error(`no conversation for a request starting ${first.slice(0, 120)}`);
    onRequest(key);
    const reply = scripts[key]!.shift();
    if (!reply) throw new Error(`the conversation "${key}" has no reply left`);
    return reply;
  };
  return { replies: () => Array.from({ length: total }, () => route) };
}
