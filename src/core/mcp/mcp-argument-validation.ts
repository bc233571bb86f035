import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { mcpSdk } from './mcp-sdk-loader.js';

// One Ajv for all servers, made on the first call: compiled validators are cached per schema
// object, and a refreshed tool list brings new schema objects, so stale validators are simply never
// looked up again.
let ajv: Ajv | undefined;
const cache = new WeakMap<object, ValidateFunction | null>();

/** Checks arguments against a tool's input schema; returns a message listing every failing path, or undefined when valid. */
export function validateToolArguments(schema: Readonly<Record<string, unknown>>, args: unknown): string | undefined {
  const validate = compile(schema);
  // A schema Ajv cannot compile is the server's business; the server validates the call itself.
  if (!validate || validate(args)) return undefined;
  const lines = (validate.errors ?? []).map(describeError);
  return [...new Set(lines)].map((line) => `- ${line}`).join('\n');
}

function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction | null {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  let validate: ValidateFunction | null;
  try {
    // Draft-07 and 2020-12 tool schemas differ in keywords tools rarely use; the $schema URI would make Ajv refuse.
    const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
    ajv ??= new (mcpSdk().Ajv)({ allErrors: true, strict: false, validateFormats: false, validateSchema: false });
    validate = ajv.compile(rest);
  } catch {
    validate = null;
  }
  cache.set(schema, validate);
  return validate;
}

function describeError(error: ErrorObject): string {
  const at = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${pathOf(`${error.instancePath}/${String(params.missingProperty)}`)}: required property is missing`;
    case 'additionalProperties':
      return `${pathOf(`${error.instancePath}/${String(params.additionalProperty)}`)}: unknown property (not in the schema)`;
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${at}: must be ${String(params.type)}`;
    default:
      return `${at}: ${error.message ?? error.keyword}`;
  }
}

/** "/items/0/name" → "arguments.items[0].name". */
function pathOf(instancePath: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : `${path}.${s}`), 'arguments');
}
