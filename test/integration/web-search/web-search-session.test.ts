// How a task gets web_search: only with a backend (off, or nothing set up for auto, leaves it out of
// the tools and so of every prompt), a backend named but not set up is a warning, and the search
// keys are redacted like the providers' keys.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createProvider } from '../../../src/core/providers/create-provider.js';
import { SecretRedactor } from '../../../src/core/secrets/secret-redactor.js';
import { useTaskFixture } from '../../helpers/agent-fixture.js';
import { ToolHarness } from '../../helpers/tool-harness.js';

describe('web_search in a task environment', () => {
  const fixture = useTaskFixture();
  const provider = () => createProvider({ provider: 'openai-compatible', model: 'scripted-model', apiKey: 'k', baseUrl: fixture.server.openAiBaseUrl });

  test('a backend set up: the tool is registered and its key is redacted; off or nothing set up: no tool', async () => {
    const redactor = new SecretRedactor();
    const host = new ToolHarness(fixture.ws.root).host;
    const withKey = await fixture.environment(provider(), host, { redactor, web: { search: { backend: 'auto', keys: { brave: 'BSA-session-secret-123' } } } });
    assert.ok(withKey.options.tools.get('web_search'), 'offered with a Brave key');
    assert.equal(redactor.redact('the key is BSA-session-secret-123.'), 'the key is [REDACTED].');
    for (const search of [{ backend: 'off' as const, keys: { brave: 'b' } }, { backend: 'auto' as const }]) {
      const environment = await fixture.environment(provider(), host, { web: { search } });
      assert.equal(environment.options.tools.get('web_search'), undefined, JSON.stringify(search));
    }
  });

  test('a backend named but not set up is said once, and the task runs without the tool', async () => {
    const notes: string[] = [];
    const host = { ...new ToolHarness(fixture.ws.root).host, notify: (_level: string, message: string) => void notes.push(message) };
    const environment = await fixture.environment(provider(), host, { web: { search: { backend: 'anthropic' } } });
    assert.equal(environment.options.tools.get('web_search'), undefined);
    assert.deepEqual(notes, ["web_search is off: Anthropic's web search needs the anthropic provider (Claude on Anthropic's API)"]);
  });
});
