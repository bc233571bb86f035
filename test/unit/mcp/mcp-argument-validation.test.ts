import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateToolArguments } from '../../../src/core/mcp/mcp-argument-validation.js';
import { parseArguments } from '../../../src/core/tools/use-mcp-tool.js';

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    repo: { type: 'string' },
    labels: { type: 'array', items: { type: 'string' } },
    priority: { enum: ['low', 'high'] },
    meta: { type: 'object', properties: { count: { type: 'integer', minimum: 1 } }, required: ['count'], additionalProperties: false },
  },
  required: ['repo'],
  additionalProperties: false,
};

describe('validateToolArguments', () => {
  test('valid arguments pass', () => {
    assert.equal(validateToolArguments(schema, { repo: 'a/b', labels: ['x'], priority: 'low', meta: { count: 2 } }), undefined);
  });

  test('every failing path is listed', () => {
    const message = validateToolArguments(schema, { labels: ['x', 3], priority: 'urgent', meta: { count: 0, extra: 1 }, owner: 'me' });
    assert.equal(
      message,
      [
        '- arguments.repo: required property is missing',
        '- arguments.owner: unknown property (not in the schema)',
        '- arguments.labels[1]: must be string',
        '- arguments.priority: must be one of "low", "high"',
        '- arguments.meta.extra: unknown property (not in the schema)',
        '- arguments.meta.count: must be >= 1',
      ].join('\n'),
    );
  });

  test('2020-12 schemas validate; schemas Ajv cannot compile are left to the server', () => {
    const modern = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    assert.equal(validateToolArguments(modern, { n: 'x' }), '- arguments.n: must be number');
    assert.equal(validateToolArguments({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 }), undefined);
  });
});

describe('parseArguments', () => {
  test('empty means {}, fenced JSON is unwrapped, non-objects are refused', () => {
    assert.deepEqual(parseArguments(undefined), {});
    assert.deepEqual(parseArguments('  '), {});
    assert.deepEqual(parseArguments('```json\n{"a": 1}\n```'), { a: 1 });
    assert.match(String(parseArguments('"text"')), /must be a JSON object \(like \{"city": "Paris"\}\), not "text"/);
    assert.match(String(parseArguments('{"a": 1,}')), /^The arguments of use_mcp_tool are not valid JSON/);
  });
});
