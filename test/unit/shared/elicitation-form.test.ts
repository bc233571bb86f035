import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkElicitationContent,
  elicitationFields,
  MAX_ELICITATION_FIELDS,
  readElicitationInput,
  type ElicitationField,
} from '../../../src/shared/elicitation-form.js';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 10 },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    agree: { type: 'boolean' },
    colour: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Batman' },
      ],
    },
    tools: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['a', 'b', 'c'] } },
  },
  required: ['name', 'agree'],
};

function fields(): ElicitationField[] {
  const read = elicitationFields(SCHEMA);
  assert.ok(Array.isArray(read), String(read));
  return read;
}

describe('elicitation forms', () => {
  test('every primitive of the spec becomes a field with its bounds, options and default', () => {
    const byName = new Map(fields().map((f) => [f.name, f]));
    assert.deepEqual(byName.get('name'), { name: 'name', label: 'Name', required: true, kind: 'text', minLength: 2, maxLength: 10 });
    assert.deepEqual(byName.get('age'), { name: 'age', label: 'age', required: false, kind: 'number', integer: true, minimum: 0, maximum: 150, default: 30 });
    assert.deepEqual(byName.get('colour')?.kind === 'choice' && byName.get('colour'), {
      name: 'colour',
      label: 'colour',
      required: false,
      kind: 'choice',
      options: [
        { value: 'red', label: 'Red' },
        { value: 'green', label: 'Green' },
      ],
    });
    assert.equal(byName.get('tools')?.kind, 'multi');
  });

  test('a schema that is not a flat form is refused with the reason', () => {
    assert.match(String(elicitationFields({ type: 'object', properties: { a: { type: 'object' } } })), /field "a": unsupported type "object"/);
    assert.match(String(elicitationFields({ type: 'array' })), /not an object schema/);
    assert.match(String(elicitationFields({ type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } })), /unknown format/);
    assert.match(String(elicitationFields({ type: 'object', properties: {}, required: ['ghost'] })), /"ghost" is required but not described/);
    const many = Object.fromEntries(Array.from({ length: MAX_ELICITATION_FIELDS + 1 }, (_, i) => [`f${i}`, { type: 'string' }]));
    assert.match(String(elicitationFields({ type: 'object', properties: many })), /at most 50/);
  });

  test('a valid answer passes and keeps only what was given', () => {
    const check = checkElicitationContent(fields(), {
      name: 'Ada',
      email: 'ada@example.com',
      site: 'https://example.com/x',
      born: '1815-12-10',
      at: '2025-01-31T09:30:00Z',
      age: 36,
      ratio: 0.5,
      agree: true,
      colour: 'red',
      hero: 'h2',
      tools: ['a', 'c'],
    });
    assert.equal(check.ok, true, JSON.stringify(check));
  });

  test('each kind of wrong value is named per field', () => {
    const check = checkElicitationContent(fields(), {
      name: 'A',
      email: 'ada@',
      site: 'not a uri',
      born: '2023-02-30',
      at: '2025-01-31',
      age: 36.5,
      ratio: 2,
      agree: 'yes',
      colour: 'Red',
      hero: 'Batman',
      tools: ['a', 'a'],
      extra: 1,
    });
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.deepEqual(
      Object.keys(check.errors).sort(),
      ['agree', 'at', 'born', 'colour', 'email', 'extra', 'hero', 'name', 'ratio', 'site', 'tools', 'age'].sort(),
    );
    assert.match(check.errors.age!, /whole number/);
    assert.match(check.errors.ratio!, /at most 1/);
  });

  test('required fields must be there; an empty string is no value', () => {
    const check = checkElicitationContent(fields(), { name: '' });
    assert.ok(!check.ok && check.errors.name === 'required' && check.errors.agree === 'required');
    assert.equal(checkElicitationContent(fields(), null).ok, false);
    assert.ok(!checkElicitationContent(fields(), { name: 'Ada', agree: true, tools: [] }).ok, 'fewer items than minItems');
  });

  test('typed input is read per kind: numbers, yes/no, options by number, value or label', () => {
    const byName = new Map(fields().map((f) => [f.name, f]));
    assert.deepEqual(readElicitationInput(byName.get('age')!, ' 42 '), { value: 42 });
    assert.ok('error' in readElicitationInput(byName.get('age')!, 'forty'));
    assert.deepEqual(readElicitationInput(byName.get('agree')!, 'Yes'), { value: true });
    assert.deepEqual(readElicitationInput(byName.get('agree')!, 'n'), { value: false });
    assert.deepEqual(readElicitationInput(byName.get('colour')!, '2'), { value: 'green' });
    assert.deepEqual(readElicitationInput(byName.get('hero')!, 'batman'), { value: 'h2' });
    assert.deepEqual(readElicitationInput(byName.get('tools')!, '1, c'), { value: ['a', 'c'] });
    assert.ok('error' in readElicitationInput(byName.get('tools')!, 'a, z'));
    assert.deepEqual(readElicitationInput(byName.get('name')!, '   '), { value: undefined });
  });
});
