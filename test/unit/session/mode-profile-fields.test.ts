import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modeProfileFields, namedModeProfiles, profileModelFor } from '../../../src/core/session/mode-profile-fields.js';
import type { ApiProfile } from '../../../src/shared/protocol.js';

const thinker: ApiProfile = { provider: 'anthropic', model: 'claude-sonnet-4-5', planModel: 'claude-opus-4-5', apiVersion: 'ignored-unless-azure' };
const local: ApiProfile = {
  provider: 'openai-compatible',
  model: 'qwen',
  baseUrl: 'http://127.0.0.1:11434/v1',
  toolProtocol: 'native',
  reasoningEffort: 'high',
};

describe('a mode’s API profile', () => {
  it('runs that mode on the profile’s own model for it, else on the profile’s model', () => {
    assert.equal(profileModelFor(thinker, 'plan'), 'claude-opus-4-5');
    assert.equal(profileModelFor(thinker, 'act'), undefined);
    assert.equal(profileModelFor({ provider: 'openai', actModel: '' }, 'act'), undefined);
    assert.equal(modeProfileFields(thinker, 'plan').model, 'claude-opus-4-5');
    assert.equal(modeProfileFields(thinker, 'act').model, 'claude-sonnet-4-5');
  });

  it('stands for every provider field it holds, and for the provider’s defaults where it holds none', () => {
    assert.deepEqual(modeProfileFields(local, 'act'), {
      provider: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'http://127.0.0.1:11434/v1',
      toolProtocol: 'native',
      reasoningEffort: 'high',
      apiVersion: '',
      openAiApi: '',
    });
    assert.equal(modeProfileFields({ provider: 'openai', openAiApi: 'responses' }, 'act').openAiApi, 'responses');
    const bare = modeProfileFields({ provider: 'anthropic' }, 'plan');
    assert.deepEqual(
      { ...bare, model: bare.model !== '' },
      { provider: 'anthropic', model: true, baseUrl: '', toolProtocol: 'xml', reasoningEffort: 'off', apiVersion: '', openAiApi: '' },
    );
  });

  it('each mode gets the profile it names; a name no profile has is reported, never looked up on the prototype', () => {
    const profiles = { thinker, local };
    assert.deepEqual(namedModeProfiles({ plan: 'thinker', act: 'local' }, profiles), {
      found: { plan: modeProfileFields(thinker, 'plan'), act: modeProfileFields(local, 'act') },
      missing: [],
    });
    assert.deepEqual(namedModeProfiles({ plan: '', act: 'gone' }, profiles), { found: {}, missing: [{ mode: 'act', name: 'gone' }] });
    assert.deepEqual(namedModeProfiles({ plan: 'constructor', act: '__proto__' }, profiles).missing, [
      { mode: 'plan', name: 'constructor' },
      { mode: 'act', name: '__proto__' },
    ]);
    assert.deepEqual(namedModeProfiles({}, profiles), { found: {}, missing: [] });
  });
});
