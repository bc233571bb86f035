// The form an MCP server's `elicitation/create` asks for: its requested schema read into fields,
// and the one check of an answer against them. The engine, the CLI's prompt and the panel's form
// (host and webview) all use these, so an answer is judged the same everywhere.
import * as z from './zod-config.js';
import type { DeepReadonly } from './deep-readonly.js';

/** Most fields one form may have; a larger schema is declined, never shown half. */
export const MAX_ELICITATION_FIELDS = 50;
/** Most options one choice may offer. */
const MAX_OPTIONS = 500;
/** Longest text a string field accepts when the schema sets no maxLength. */
const MAX_TEXT = 10_000;

const option = z.object({ value: z.string(), label: z.string() });
const base = {
  /** The property's key in the answer. */
  name: z.string(),
  /** What the form shows: the schema's title, else the key. */
  label: z.string(),
  description: z.optional(z.string()),
  required: z.boolean(),
};

/** One field of a form, read from one property of the requested schema. */
export const elicitationFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('text'),
    format: z.optional(z.enum(['email', 'uri', 'date', 'date-time'])),
    minLength: z.optional(z.number()),
    maxLength: z.optional(z.number()),
    default: z.optional(z.string()),
  }),
  z.object({
    ...base,
    kind: z.literal('number'),
    integer: z.boolean(),
    minimum: z.optional(z.number()),
    maximum: z.optional(z.number()),
    default: z.optional(z.number()),
  }),
  z.object({ ...base, kind: z.literal('boolean'), default: z.optional(z.boolean()) }),
  z.object({ ...base, kind: z.literal('choice'), options: z.array(option), default: z.optional(z.string()) }),
  z.object({
    ...base,
    kind: z.literal('multi'),
    options: z.array(option),
    minItems: z.optional(z.number()),
    maxItems: z.optional(z.number()),
    default: z.optional(z.array(z.string())),
  }),
]);
export type ElicitationField = DeepReadonly<z.infer<typeof elicitationFieldSchema>>;

/** A value of an answer, as the protocol allows it. */
export type ElicitationValue = string | number | boolean | readonly string[];

/** The outcome of checking an answer: the content to send, or a message per field. */
export type ElicitationCheck =
  | { readonly ok: true; readonly content: Readonly<Record<string, ElicitationValue>> }
  | { readonly ok: false; readonly errors: Readonly<Record<string, string>> };

type Json = Record<string, unknown>;

/** Reads a requested schema into fields; a string says why it cannot be shown as a form. */
export function elicitationFields(requestedSchema: unknown): ElicitationField[] | string {
  if (!isObject(requestedSchema) || requestedSchema.type !== 'object') return 'the requested schema is not an object schema';
  const properties = requestedSchema.properties ?? {};
  if (!isObject(properties)) return 'the requested schema has no properties object';
  const entries = Object.entries(properties);
  if (entries.length > MAX_ELICITATION_FIELDS) return `the form has ${entries.length} fields (at most ${MAX_ELICITATION_FIELDS} are shown)`;
  const required = new Set(Array.isArray(requestedSchema.required) ? requestedSchema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: ElicitationField[] = [];
  for (const [name, property] of entries) {
    const field = readField(name, property, required.has(name));
    if (typeof field === 'string') return `field "${name}": ${field}`;
    fields.push(field);
  }
  for (const name of required) if (!(name in properties)) return `"${name}" is required but not described`;
  return fields;
}

function readField(name: string, property: unknown, required: boolean): ElicitationField | string {
  if (!isObject(property)) return 'not a schema';
  const common = {
    name,
    label: typeof property.title === 'string' && property.title.trim() !== '' ? property.title : name,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required,
  };
  switch (property.type) {
    case 'string': {
      const options = stringOptions(property);
      if (typeof options === 'string') return options;
      if (options) return { ...common, kind: 'choice', options, ...(typeof property.default === 'string' ? { default: property.default } : {}) };
      const format = property.format;
      if (format !== undefined && format !== 'email' && format !== 'uri' && format !== 'date' && format !== 'date-time')
        return `unknown format ${JSON.stringify(format)}`;
      return {
        ...common,
        kind: 'text',
        ...(format ? { format } : {}),
        ...numberProp(property, 'minLength'),
        ...numberProp(property, 'maxLength'),
        ...(typeof property.default === 'string' ? { default: property.default } : {}),
      };
    }
    case 'number':
    case 'integer':
      return {
        ...common,
        kind: 'number',
        integer: property.type === 'integer',
        ...numberProp(property, 'minimum'),
        ...numberProp(property, 'maximum'),
        ...(typeof property.default === 'number' ? { default: property.default } : {}),
      };
    case 'boolean':
      return { ...common, kind: 'boolean', ...(typeof property.default === 'boolean' ? { default: property.default } : {}) };
    case 'array': {
      const items = property.items;
      if (!isObject(items)) return 'an array without items';
      const options = Array.isArray(items.anyOf)
        ? titledOptions(items.anyOf)
        : Array.isArray(items.enum)
          ? plainOptions(items.enum, undefined)
          : 'an array of anything but choices';
      if (typeof options === 'string') return options;
      const fallback = Array.isArray(property.default) ? property.default.filter((v): v is string => typeof v === 'string') : undefined;
      return {
        ...common,
        kind: 'multi',
        options,
        ...numberProp(property, 'minItems'),
        ...numberProp(property, 'maxItems'),
        ...(fallback ? { default: fallback } : {}),
      };
    }
    default:
      return `unsupported type ${JSON.stringify(property.type)}`;
  }
}

/** The options of a single choice: `oneOf` with titles, or `enum` (with the legacy `enumNames`); undefined for a free string. */
function stringOptions(property: Json): { value: string; label: string }[] | string | undefined {
  if (Array.isArray(property.oneOf)) return titledOptions(property.oneOf);
  if (Array.isArray(property.enum)) return plainOptions(property.enum, Array.isArray(property.enumNames) ? property.enumNames : undefined);
  return undefined;
}

function titledOptions(list: readonly unknown[]): { value: string; label: string }[] | string {
  if (list.length === 0 || list.length > MAX_OPTIONS) return `${list.length} options (1 to ${MAX_OPTIONS} are shown)`;
  const options: { value: string; label: string }[] = [];
  for (const entry of list) {
    if (!isObject(entry) || typeof entry.const !== 'string') return 'an option without a string const';
    options.push({ value: entry.const, label: typeof entry.title === 'string' ? entry.title : entry.const });
  }
  return options;
}

function plainOptions(values: readonly unknown[], names: readonly unknown[] | undefined): { value: string; label: string }[] | string {
  if (values.length === 0 || values.length > MAX_OPTIONS) return `${values.length} options (1 to ${MAX_OPTIONS} are shown)`;
  if (!values.every((v): v is string => typeof v === 'string')) return 'an enum of anything but strings';
  return values.map((value, i) => ({ value, label: typeof names?.[i] === 'string' ? names[i] : value }));
}

function numberProp<K extends string>(property: Json, key: K): Partial<Record<K, number>> {
  const value = property[key];
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};
}

/**
 * Checks an answer against the fields: every required field present, each value of its field's
 * type and within its bounds, format or options, and no key the form did not ask for.
 */
export function checkElicitationContent(fields: readonly ElicitationField[], content: unknown): ElicitationCheck {
  if (!isObject(content)) return { ok: false, errors: { '': 'the answer is not an object' } };
  const errors: Record<string, string> = {};
  const out: Record<string, ElicitationValue> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(content)) if (!known.has(key)) errors[key] = 'the form has no such field';
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined || value === null || value === '') {
      if (field.required) errors[field.name] = 'required';
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem !== undefined) errors[field.name] = problem;
    else out[field.name] = value as ElicitationValue;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content: out };
}

function valueProblem(field: ElicitationField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      const max = field.maxLength ?? MAX_TEXT;
      if (field.minLength !== undefined && value.length < field.minLength) return `at least ${field.minLength} characters`;
      if (value.length > max) return `at most ${max} characters`;
      return field.format ? formatProblem(field.format, value) : undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? undefined : `one of ${field.options.map((o) => o.value).join(', ')}`;
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'must be a list of choices';
      const wrong = value.find((v) => !field.options.some((o) => o.value === v));
      if (wrong !== undefined) return `${JSON.stringify(wrong)} is not one of ${field.options.map((o) => o.value).join(', ')}`;
      if (new Set(value).size !== value.length) return 'a choice is listed twice';
      if (field.minItems !== undefined && value.length < field.minItems) return `choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `choose at most ${field.maxItems}`;
      return undefined;
    }
  }
}

function formatProblem(format: 'email' | 'uri' | 'date' | 'date-time', value: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : 'must be an email address';
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value) && canParseUrl(value) ? undefined : 'must be a URI (like https://example.com)';
    case 'date': {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      return match && isRealDate(Number(match[1]), Number(match[2]), Number(match[3])) ? undefined : 'must be a date (YYYY-MM-DD)';
    }
    case 'date-time': {
      const match = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
      return match && isRealDate(Number(match[1]), Number(match[2]), Number(match[3])) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'must be a date and time (like 2025-01-31T09:30:00Z)';
    }
  }
}

function canParseUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads what a person typed for a field (a terminal line, a form's text box): a number, yes/no,
 * an option by value, label or number, a comma-separated list of them. Empty text is no value.
 */
export function readElicitationInput(field: ElicitationField, text: string): { readonly value: ElicitationValue | undefined } | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: undefined };
  switch (field.kind) {
    case 'text':
      return { value: text };
    case 'number': {
      const value = Number(trimmed);
      return Number.isFinite(value) ? { value } : { error: 'must be a number' };
    }
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(trimmed)) return { value: true };
      if (/^(n|no|false|0)$/i.test(trimmed)) return { value: false };
      return { error: 'answer yes or no' };
    case 'choice': {
      const found = pickOption(field.options, trimmed);
      return found !== undefined ? { value: found } : { error: `one of ${field.options.map((o) => o.value).join(', ')}` };
    }
    case 'multi': {
      const values: string[] = [];
      for (const part of trimmed
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')) {
        const found = pickOption(field.options, part);
        if (found === undefined) return { error: `${JSON.stringify(part)} is not one of ${field.options.map((o) => o.value).join(', ')}` };
        values.push(found);
      }
      return { value: values };
    }
  }
}

function pickOption(options: readonly { readonly value: string; readonly label: string }[], text: string): string | undefined {
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1;
  if (index >= 0 && index < options.length && !options.some((o) => o.value === text)) return options[index]!.value;
  return (options.find((o) => o.value === text) ?? options.find((o) => o.label.toLowerCase() === text.toLowerCase()))?.value;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
