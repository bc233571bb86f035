import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { loadSkillCatalog, type SkillCatalogInput, UNTRUSTED_NOTE } from '../../../src/core/skills/skill-catalog.js';
import { SKILL_DISCOVERY_CAPS } from '../../../src/core/skills/skill-discovery.js';
import { skillsPromptSection } from '../../../src/core/skills/skill-prompt-section.js';
import { createTempWorkspace, type TempWorkspace } from '../../helpers/temp-workspace.js';

let ws: TempWorkspace;
let home: string;
let storage: string;
let outside: string;
beforeEach(() => {
  ws = createTempWorkspace('smith-skills-');
  home = mkdtempSync(join(tmpdir(), 'smith-home-'));
  storage = mkdtempSync(join(tmpdir(), 'smith-storage-'));
  outside = mkdtempSync(join(tmpdir(), 'smith-outside-'));
});
afterEach(() => {
  ws.dispose();
  for (const dir of [home, storage, outside]) rmSync(dir, { recursive: true, force: true });
});

const skillText = (name: string, description = `${name} skill`) => `---\nname: ${name}\ndescription: ${description}\n---\nDo the ${name} thing.\n`;

function writeSkill(base: string, rel: string, name: string, description?: string): void {
  const dir = join(base, rel, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), skillText(name, description));
}

const load = (extra: Partial<SkillCatalogInput> = {}) =>
  loadSkillCatalog({ workspaceRoots: [ws.root], storageDir: storage, homeDir: home, workspaceTrusted: () => true, ...extra });

describe('where skills are found', () => {
  test('every workspace, user, setting and flag folder is read', () => {
    for (const rel of ['.smith/skills', '.claude/skills', '.agents/skills', '.cline/skills', '.clinerules/skills', '.roo/skills'])
      writeSkill(ws.root, rel, `ws-${rel.split('/')[0]!.replace('.', '')}`);
    writeSkill(storage, 'skills', 'smith-user');
    for (const rel of ['.claude/skills', '.agents/skills', '.codex/skills', '.cline/skills', '.roo/skills'])
      writeSkill(home, rel, `home-${rel.split('/')[0]!.replace('.', '')}`);
    writeSkill(outside, 'flag', 'from-flag');
    writeSkill(outside, 'setting', 'from-setting');
    const catalog = load({ skillDirs: [join(outside, 'flag')], settingFolders: [join(outside, 'setting')] });
    assert.deepEqual(
      catalog.offered.map((s) => `${s.name} ${s.scope}`),
      [
        'from-flag extra',
        'ws-smith workspace',
        'ws-claude workspace',
        'ws-agents workspace',
        'ws-cline workspace',
        'ws-clinerules workspace',
        'ws-roo workspace',
        'from-setting extra',
        'smith-user user',
        'home-claude user',
        'home-agents user',
        'home-codex user',
        'home-cline user',
        'home-roo user',
      ],
    );
    const claude = catalog.offered.find((s) => s.name === 'ws-claude')!;
    assert.equal(claude.location, '.claude/skills');
    assert.equal(claude.dir, join(ws.root, '.claude/skills/ws-claude'));
    assert.equal(catalog.offered.find((s) => s.name === 'home-claude')!.location, '~/.claude/skills');
  });

  test('a workspace skill wins over the user skill of the same name, which is listed as shadowed', () => {
    writeSkill(ws.root, '.claude/skills', 'deploy', 'workspace deploy');
    writeSkill(home, '.claude/skills', 'deploy', 'user deploy');
    const catalog = load();
    assert.deepEqual(
      catalog.offered.map((s) => s.description),
      ['workspace deploy'],
    );
    const shadowed = catalog.entries.find((e) => e.location === '~/.claude/skills')!;
    assert.equal(shadowed.offered, false);
    assert.match(shadowed.note!, /same name in \.claude\/skills comes first/);
  });

  test('an untrusted workspace offers none of its skills; the user skill of the name is used instead', () => {
    writeSkill(ws.root, '.claude/skills', 'deploy', 'workspace deploy');
    writeSkill(ws.root, '.smith/skills', 'lint', 'workspace lint');
    writeSkill(home, '.claude/skills', 'deploy', 'user deploy');
    const catalog = load({ workspaceTrusted: () => false });
    assert.deepEqual(
      catalog.offered.map((s) => s.description),
      ['user deploy'],
    );
    const held = catalog.entries.filter((e) => e.scope === 'workspace');
    assert.equal(held.length, 2);
    for (const entry of held) assert.equal(entry.note, UNTRUSTED_NOTE);
  });

  test('trust is given for the exact files: a changed, added or removed SKILL.md needs a new answer', () => {
    writeSkill(ws.root, '.claude/skills', 'deploy');
    const first = load().workspace!;
    assert.deepEqual(first.skills, ['deploy (.claude/skills)']);
    const trustedOnly = (fingerprint: string) => fingerprint === first.fingerprint;
    assert.deepEqual(
      load({ workspaceTrusted: trustedOnly }).offered.map((s) => s.name),
      ['deploy'],
    );
    ws.write('.claude/skills/deploy/SKILL.md', skillText('deploy', 'now does something else'));
    assert.deepEqual(load({ workspaceTrusted: trustedOnly }).offered, [], 'a changed SKILL.md');
    writeSkill(ws.root, '.claude/skills', 'deploy');
    writeSkill(ws.root, '.smith/skills', 'extra');
    assert.deepEqual(load({ workspaceTrusted: trustedOnly }).offered, [], 'an added skill');
    rmSync(join(ws.root, '.smith'), { recursive: true });
    assert.deepEqual(
      load({ workspaceTrusted: trustedOnly }).offered.map((s) => s.name),
      ['deploy'],
    );
    assert.equal(load({ workspaceRoots: [join(ws.root, 'none')] }).workspace, undefined, 'no workspace skills, nothing to trust');
  });

  test("a folder named by the workspace's own settings is the workspace's: trust applies", () => {
    writeSkill(ws.root, 'tools/skills', 'sneaky');
    const catalog = load({ workspaceTrusted: () => false, settingFolders: ['tools/skills'] });
    assert.deepEqual(catalog.offered, []);
    assert.equal(catalog.entries[0]!.scope, 'workspace');
  });

  test('a disabled name is offered from no folder', () => {
    writeSkill(ws.root, '.claude/skills', 'deploy');
    writeSkill(home, '.claude/skills', 'deploy');
    writeSkill(home, '.claude/skills', 'other');
    const catalog = load({ disabled: new Set(['deploy']) });
    assert.deepEqual(
      catalog.offered.map((s) => s.name),
      ['other'],
    );
    assert.ok(catalog.entries.filter((e) => e.name === 'deploy').every((e) => !e.offered));
  });

  test('a skill with disable-model-invocation: true is listed, not offered', () => {
    ws.write('.claude/skills/manual/SKILL.md', '---\nname: manual\ndescription: d\ndisable-model-invocation: true\n---\n');
    const catalog = load();
    assert.deepEqual(catalog.offered, []);
    assert.match(catalog.entries[0]!.note!, /disable-model-invocation/);
  });

  test('an invalid skill is listed with why; a folder without SKILL.md and a hidden folder are no skills', () => {
    ws.write('.claude/skills/Bad/SKILL.md', skillText('Bad'));
    ws.write('.claude/skills/notes/README.md', 'no skill here');
    ws.write('.claude/skills/.hidden/SKILL.md', skillText('hidden'));
    ws.write('.claude/skills/loose-file.md', 'not a folder');
    const catalog = load();
    assert.deepEqual(catalog.offered, []);
    assert.equal(catalog.entries.length, 1);
    assert.match(catalog.entries[0]!.note!, /not used: its SKILL.md name "Bad"/);
  });
});

describe('what a repository cannot make Smith read', () => {
  test('a skill folder or SKILL.md linked outside the workspace is not read, and said so', () => {
    writeSkill(outside, '', 'secret');
    writeFileSync(join(outside, 'target.md'), skillText('linked-file'));
    mkdirSync(join(ws.root, '.claude/skills/linked-file'), { recursive: true });
    symlinkSync(join(outside, 'secret'), join(ws.root, '.claude/skills/secret'));
    symlinkSync(join(outside, 'target.md'), join(ws.root, '.claude/skills/linked-file/SKILL.md'));
    const catalog = load();
    assert.deepEqual(catalog.offered, []);
    const said = [...catalog.notes, ...catalog.entries.map((e) => e.note ?? '')].join('\n');
    assert.match(said, /links outside the workspace/);
    assert.ok(!said.includes('Do the secret thing'), 'nothing of the file leaks');
  });

  test('a skills folder linked outside (.claude/skills -> /etc) is not listed', () => {
    mkdirSync(join(ws.root, '.claude'), { recursive: true });
    writeSkill(outside, 'skills', 'etc-skill');
    symlinkSync(join(outside, 'skills'), join(ws.root, '.claude/skills'));
    const catalog = load();
    assert.deepEqual(catalog.offered, []);
    assert.match(catalog.notes.join('\n'), /\.claude\/skills: links outside the workspace/);
  });

  test('".." in a link that stays inside is followed; one that climbs out is not', () => {
    writeSkill(ws.root, 'shared', 'inside');
    writeSkill(ws.root, '..', `escape-${process.pid}`);
    mkdirSync(join(ws.root, '.claude/skills'), { recursive: true });
    symlinkSync('../../shared/inside', join(ws.root, '.claude/skills/inside'));
    symlinkSync(`../../../escape-${process.pid}`, join(ws.root, `.claude/skills/escape-${process.pid}`));
    try {
      assert.deepEqual(
        load().offered.map((s) => s.name),
        ['inside'],
      );
    } finally {
      rmSync(join(ws.root, '..', `escape-${process.pid}`), { recursive: true, force: true });
    }
  });

  test('a user folder is read wherever its links point (the user put them there)', () => {
    writeSkill(outside, '', 'mine');
    mkdirSync(join(home, '.claude/skills'), { recursive: true });
    symlinkSync(join(outside, 'mine'), join(home, '.claude/skills/mine'));
    assert.deepEqual(
      load().offered.map((s) => s.name),
      ['mine'],
    );
  });

  test('a huge SKILL.md, an endless one (/dev/zero) and a link loop are skipped with why, and discovery ends', () => {
    ws.write('.claude/skills/huge/SKILL.md', `${skillText('huge')}${'x'.repeat(SKILL_DISCOVERY_CAPS.fileBytes)}`);
    mkdirSync(join(home, '.claude/skills/zero'), { recursive: true });
    symlinkSync('/dev/zero', join(home, '.claude/skills/zero/SKILL.md'));
    mkdirSync(join(ws.root, '.claude/skills/loop'), { recursive: true });
    symlinkSync('SKILL.md', join(ws.root, '.claude/skills/loop/SKILL.md'));
    writeSkill(ws.root, '.claude/skills', 'fine');
    const catalog = load();
    assert.deepEqual(
      catalog.offered.map((s) => s.name),
      ['fine'],
    );
    const said = [...catalog.notes, ...catalog.entries.map((e) => `${e.name}: ${e.note ?? ''}`)].join('\n');
    assert.match(said, /huge: .*larger than 256 KiB/);
    assert.match(said, /zero: .*not a regular file/);
    assert.match(said, /link loop/);
  });

  test('a folder of 10,000 skills: at most 1,000 entries are read, the prompt list stays within its budget', () => {
    const dir = join(ws.root, '.claude/skills');
    for (let i = 0; i < 10_000; i++) {
      const name = `s${i}`;
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'SKILL.md'), skillText(name, `Skill number ${i} does a thing that takes a sentence to say.`));
    }
    const catalog = load();
    assert.equal(catalog.offered.length, SKILL_DISCOVERY_CAPS.entries);
    assert.match(catalog.notes.join('\n'), /\.claude\/skills: more than 1000 entries; the rest are not read/);
    const section = skillsPromptSection(catalog.offered);
    assert.ok(section.length < 8_800, `the section has ${section.length} characters`);
    assert.match(section, /\(\d+ more skills are installed but not listed here, for space\.\)/);
  });
});

describe('the skills section of the prompt', () => {
  test('lists each offered skill by name and description only', () => {
    writeSkill(ws.root, '.claude/skills', 'deploy', 'Deploy the app. Use when asked to ship.');
    const section = skillsPromptSection(load().offered);
    assert.match(section, /^# Skills/);
    assert.match(section, /- deploy: Deploy the app\. Use when asked to ship\./);
    assert.ok(!section.includes('Do the deploy thing'), 'the instructions wait for use_skill');
    assert.equal(skillsPromptSection([]), '');
  });
});
