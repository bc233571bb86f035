// What a turn offers of the Agent Skills: the Skills section and use_skill together, only for a task
// that has the tool, and the limits of the skill loaded last until the user writes again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { TaskEvent } from '../../../src/core/log/events.js';
import type { ApiProvider } from '../../../src/core/providers/types.js';
import { workspaceTools } from '../../../src/core/session/task-environment.js';
import { SkillSession } from '../../../src/core/skills/skill-session.js';
import { setupTurn } from '../../../src/core/task/turn-setup.js';
import { ToolRegistry } from '../../../src/core/tool-kit/tool-registry.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

const NO_PROVIDER: ApiProvider = {
  id: 'anthropic',
  modelId: 'claude-sonnet-4-5',
  createMessage: () => {
    throw new Error('no request is sent');
  },
};

let ws: TempWorkspace;
let storage: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-skill-turn-');
  storage = mkdtempSync(join(tmpdir(), 'smith-skill-turn-storage-'));
  ws.write('.claude/skills/deploy/SKILL.md', '---\nname: deploy\ndescription: Ship it.\nallowed-tools: Read\n---\nSteps.\n');
});
afterEach(() => {
  ws.dispose();
  rmSync(storage, { recursive: true, force: true });
});

const started: TaskEvent = { type: 'task_started', seq: 0, ts: 0, taskId: 't', task: 'x', cwd: '/w', provider: 'anthropic', model: 'm' } as TaskEvent;

function turn(tools: ToolRegistry, events: readonly TaskEvent[] = [started]) {
  const agentSkills = new SkillSession({ workspaceRoots: [ws.root], storageDir: storage, homeDir: storage, workspaceTrusted: () => true });
  return setupTurn({ cwd: ws.root, tools, provider: NO_PROVIDER, agentSkills, system: { os: 'linux', shell: '/bin/bash' } }, events);
}

describe('Agent Skills in a turn', () => {
  test('a task with use_skill gets the Skills section and the tool; one without it (a sub-agent) gets neither', () => {
    const full = turn(new ToolRegistry(workspaceTools()));
    assert.match(full.systemPrompt, /# Skills[\s\S]*- deploy: Ship it\./);
    assert.match(full.systemPrompt, /## use_skill/);
    const without = turn(new ToolRegistry(workspaceTools().filter((tool) => tool.spec.name !== 'use_skill')));
    assert.doesNotMatch(without.systemPrompt, /# Skills|use_skill/);
  });

  test('the skill loaded last limits the calls until the user writes again or the task completes', () => {
    const tools = new ToolRegistry(workspaceTools());
    const loaded = {
      type: 'skill_loaded',
      seq: 1,
      ts: 1,
      callId: 'c',
      name: 'deploy',
      location: '.claude/skills',
      dir: '/d',
      sha256: 'x',
      allowedTools: ['Read'],
      rules: ['Read'],
    } as TaskEvent;
    assert.deepEqual(turn(tools, [started, loaded]).activeSkill, { name: 'deploy', dir: '/d', allowedTools: ['Read'], rules: ['Read'] });
    const wrote = { type: 'user_message', seq: 2, ts: 2, text: 'now run the tests' } as TaskEvent;
    assert.equal(turn(tools, [started, loaded, wrote]).activeSkill, undefined);
    const completed = { type: 'task_completed', seq: 2, ts: 2, result: 'done' } as TaskEvent;
    assert.equal(turn(tools, [started, loaded, completed]).activeSkill, undefined);
    const unlimited = { ...loaded, seq: 3, allowedTools: undefined, rules: undefined, name: 'other' } as TaskEvent;
    assert.equal(turn(tools, [started, loaded, unlimited]).activeSkill, undefined, 'a skill without allowed-tools lifts the limits');
  });
});
