import type { ToolUseBlock } from '../parse/types.js';
import type { ApiStreamChunk } from '../providers/types.js';
import { missingRequired, type ToolSpec } from '../tool-kit/tool-spec.js';

type ToolCallChunk = Extract<ApiStreamChunk, { type: 'tool_call' }>;

/** Raw arguments quoted back to the model when they cannot be read, at most this long. */
const QUOTED_ARGUMENTS = 300;

/**
 * Turns a complete native tool call into the block the loop runs. Handlers take strings (the XML
 * protocol's only type), so numbers and booleans become their JSON text (`true` → "true"), objects
 * and arrays their JSON, and null means "not given". Arguments that are not a JSON object leave
 * `params` empty and say why in `argumentsError`.
 */
export function nativeToolBlock(call: ToolCallChunk): ToolUseBlock {
  const base = { kind: 'tool' as const, name: call.name, partial: false, id: call.id, ...(call.signature ? { signature: call.signature } : {}) };
  const parsed = parseArguments(call.arguments);
  if (typeof parsed === 'string') return { ...base, params: {}, argumentsError: parsed };
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === null || value === undefined) continue;
    params[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return { ...base, params };
}

/** The error for a native call whose arguments could not be read; nothing was run. */
export function argumentsErrorMessage(block: ToolUseBlock, spec: ToolSpec | undefined): string {
  const example = spec ? `, for example ${JSON.stringify(exampleArguments(spec))}` : '';
  return `The arguments of your ${block.name} call ${block.argumentsError}\nNothing was executed. Call ${block.name} again with a JSON object of parameter names to string values${example}.`;
}

/** The error for a native call that lacks required parameters, naming them without an XML example. */
export function nativeMissingParams(spec: ToolSpec, block: ToolUseBlock): string | undefined {
  const missing = missingRequired(spec, block);
  if (missing.length === 0) return undefined;
  const names = missing.map((p) => `'${p.name}'`).join(', ');
  const required = spec.params
    .filter((p) => p.required)
    .map((p) => p.name)
    .join(', ');
  return `Missing value for required parameter ${names} of ${spec.name}. Call ${spec.name} again with all its required parameters (${required}).`;
}

function parseArguments(raw: string): Record<string, unknown> | string {
  // An empty string is how some servers send a call without arguments.
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return `are not valid JSON (${(error as Error).message}). You sent:\n${quote(raw)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `are not a JSON object. You sent:\n${quote(raw)}`;
  return value as Record<string, unknown>;
}

function quote(raw: string): string {
  return raw.length > QUOTED_ARGUMENTS ? `${raw.slice(0, QUOTED_ARGUMENTS)}…` : raw;
}

function exampleArguments(spec: ToolSpec): Record<string, string> {
  return Object.fromEntries(spec.params.filter((p) => p.required).map((p) => [p.name, '…']));
}
