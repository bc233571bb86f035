// A Bash rule judges what the line will run, not its text: every spelling of a denied command is
// denied, a line whose commands cannot be known is asked when a deny or ask rule exists, and
// ordinary commands stay allowed. (The shell grammar is tree-sitter's wasm, so not a unit test.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { narrowestAllowRules } from '../../../src/core/permissions/allow-rules.js';
import { judgeCall, type PermissionRule } from '../../../src/core/permissions/permission-rules.js';
import { analyseCommandLine } from '../../../src/core/permissions/shell-commands.js';

const rule = (effect: PermissionRule['effect'], text: string): PermissionRule => ({ effect, rule: text, source: 'test' });
const verdict = (rules: PermissionRule[], command: string) => judgeCall(rules, { tool: 'execute_command', params: { command }, cwd: '/work/app' });

const denyRm = [
  rule('deny', 'Bash(rm:*)'),
  rule('allow', 'Bash(echo:*)'),
  rule('allow', 'Bash(git status:*)'),
  rule('allow', 'Bash(ls:*)'),
  rule('allow', 'Bash(grep:*)'),
  rule('allow', 'Bash(npm test)'),
];

/** Spellings that run rm, each of which must be denied by `Bash(rm:*)`. */
const RUNS_RM = [
  'rm x',
  '\\rm x',
  "'rm' x",
  '"rm" x',
  '"r"m x',
  "r''m x",
  'r\\m x',
  "$'rm' x",
  "$'\\x72m' x",
  "$'\\162\\155' x",
  "$'\\u0072m' x",
  '$"rm" x',
  'r\\\nm x',
  '/bin/rm x',
  '/usr/bin/../bin/rm x',
  './node_modules/.bin/rm x',
  'RM x',
  'FOO=1 rm x',
  'FOO=1 BAR="a b" rm x',
  'command rm x',
  'command -p rm x',
  'builtin command rm x',
  'env rm x',
  'env -i rm x',
  '/usr/bin/env -i FOO=1 rm x',
  'env -u HOME -C /tmp rm x',
  'env --unset=HOME --chdir /tmp -- rm x',
  'env -S "rm x"',
  "env -S'-i rm x'",
  "env -S '-u HOME FOO=1 rm x' y",
  "env --split-string='rm x'",
  'doas -a passwd rm x',
  'env - rm x',
  'xargs rm',
  'xargs -0 rm',
  'xargs -n 1 -P 4 rm < list',
  'xargs -I{} rm {}',
  'xargs -I {} rm {}',
  'xargs --max-args 1 --null rm',
  'xargs -0r -n1 rm -f',
  'xargs -a list rm',
  'nohup rm x',
  'timeout 5 rm x',
  'timeout -s KILL -k 1 5s rm x',
  'timeout --signal=TERM 5 rm x',
  'timeout --preserve-status 5 rm x',
  'nice rm x',
  'nice -n 5 rm x',
  'nice -n5 rm x',
  'nice -10 rm x',
  'nice --adjustment=3 rm x',
  'time rm x',
  'time -p rm x',
  '/usr/bin/time -f %e -o t.txt rm x',
  'exec rm x',
  'exec -a name rm x',
  'ionice -c2 -n7 rm x',
  'ionice -c 3 rm x',
  'stdbuf -oL rm x',
  'stdbuf -i 0 -o L rm x',
  'setsid rm x',
  'setsid -f rm x',
  'chrt -f 10 rm x',
  'chrt 0 rm x',
  'taskset 0x1 rm x',
  'taskset -c 0,1 rm x',
  'flock /tmp/lock rm x',
  'flock -w 5 /tmp/lock rm x',
  'flock /tmp/lock -c "rm x"',
  'flock -n -c "rm x" /tmp/lock',
  'chroot / rm x',
  'chroot --userspec=nobody / rm x',
  'unshare -r rm x',
  'unshare --map-root-user --mount rm x',
  'sudo rm x',
  'sudo -u root rm x',
  'sudo -u root -- rm x',
  'sudo -E -H -n rm x',
  'sudo --user=root rm x',
  'sudo FOO=1 rm x',
  'sudo -i rm x',
  'doas rm x',
  'doas -u root rm x',
  'coproc rm x',
  'noglob rm x',
  'pkexec rm x',
  'pkexec --user root rm x',
  "sg wheel -c 'rm x'",
  'sg wheel rm x',
  'env -- rm x',
  'nice -- rm x',
  'timeout -- 5 rm x',
  'xargs -- rm',
  'nohup -- rm x',
  'eval rm x',
  "eval 'rm x'",
  'eval "rm x"',
  "eval 'echo hi; rm x'",
  "eval $'rm\\x20x'",
  "bash -c 'rm x'",
  'sh -c "echo hi && rm x"',
  'sh -c "echo hi; rm x"',
  'bash -lc "rm x"',
  'bash -ec "rm x"',
  'bash -xec "rm x"',
  'bash -e -c "rm x"',
  'bash -c -e "rm x"',
  'bash -o errexit -c "rm x"',
  'bash -O extglob -c "rm x"',
  'bash --norc --noprofile -c "rm x"',
  'bash --rcfile /dev/null -c "rm x"',
  '/bin/bash -c "rm x"',
  'dash -c "rm x"',
  'zsh -c "rm x"',
  'ksh -c "rm x"',
  'fish -c "rm x"',
  'fish --command="rm x"',
  'busybox sh -c "rm x"',
  'busybox rm x',
  'toybox rm x',
  'sh -c "sh -c \\"rm x\\""',
  'sh -c \'bash -c "eval \\"rm x\\""\'',
  'bash script.sh; rm x',
  'bash -c "rm \\"\\$1\\"" _ x',
  'sudo env nohup bash -c "eval \'rm x\'"',
  'timeout -s KILL 5s nice -n 19 ionice -c3 rm x',
  'sudo -E -u nobody env FOO=1 /bin/rm -rf /',
  'watch rm x',
  'watch -n 1 rm x',
  "watch 'rm x'",
  'watch -x rm x',
  'find . -exec rm {} \\;',
  "find . -exec rm {} ';'",
  'find . -type f -execdir rm -f {} +',
  'find . -ok rm {} \\;',
  'find . -okdir rm {} \\;',
  'find . -name "*.o" -exec sh -c \'rm "$1"\' _ {} \\;',
  'script -c "rm x"',
  'script -qc "rm x" /dev/null',
  'script --command "rm x"',
  'su -c "rm x"',
  'su - root -c "rm x"',
  'su -lc "rm x" root',
  'su --command="rm x" root',
  'runuser -u nobody -- rm x',
  "trap 'rm x' EXIT",
  'source ./rm',
  '. rm',
  'echo hi; rm x',
  'echo hi && rm x',
  'echo hi || rm x',
  'echo hi | rm x',
  'echo hi\trm x; rm\tx',
  'echo hi\nrm x',
  'rm x &',
  '! rm x',
  '(rm x)',
  '{ rm x; }',
  'echo $(rm x)',
  'echo "$(rm x)"',
  'echo `rm x`',
  'x=$(rm x)',
  'export X=$(rm x)',
  'cat <(rm x)',
  'echo hi > >(rm x)',
  'if true; then rm x; fi',
  'if rm x; then :; fi',
  'while false; do rm x; done',
  'until true; do rm x; done',
  'for f in a b; do rm "$f"; done',
  'case a in a) rm x;; esac',
  '[[ -n $(rm x) ]]',
  'echo $(( $(rm x) ))',
  'cat <<EOF\n$(rm x)\nEOF',
  'ls # a comment\nrm x',
  'f() { rm x; }; f',
  'rm -- -x',
  "rm '-rf' /",
  'echo `echo \\`rm x\\``',
  'cat <<EOF\n`rm x`\nEOF',
  'git rebase -x "rm x" main',
  "git rebase --exec='rm x' main",
  'git bisect run rm x',
  'git submodule foreach rm x',
  "git submodule foreach --recursive 'rm x'",
];

/** Lines that cannot be known for sure: asked when a deny rule exists, never allowed. */
const OPAQUE = [
  '$(echo rm) x',
  '`echo rm` x',
  '${X:-rm} x',
  '$CMD x',
  '"$CMD" x',
  '${CMD} x',
  '$@',
  'r{m,} x',
  '/bin/r? x',
  '/bin/r[m] x',
  'r* x',
  'eval "$X"',
  'eval $X',
  'eval "rm $X"',
  'source "$F"',
  '. $F',
  'bash -c "$X"',
  'sh -c $X',
  'echo rm x | sh',
  'echo rm x | bash',
  'echo rm x | bash -s',
  'bash < script',
  'sh <<< "rm x"',
  'bash <<EOF\nrm x\nEOF',
  'cat f | busybox sh',
  'sudo sh',
  'sudo -s',
  'sudo -i',
  'su',
  'su - root',
  'script -q',
  'chroot /',
  'unshare -r',
  'xargs sh',
  'xargs sh -c',
  "echo 'rm x' | xargs -I{} sh -c {}",
  "echo 'rm x' | xargs -I % bash -c %",
  "echo 'rm x' | xargs -i sh -c '{}'",
  "echo 'rm x' | xargs --replace=@ eval @",
  "source /dev/stdin <<< 'rm x'",
  "bash /dev/stdin <<< 'rm x'",
  "echo 'rm x' | sh /proc/self/fd/0",
  "echo 'rm x' | bash -",
  'sg wheel',
  "env -S'PATH=. git status'",
  'watch "$X"',
  'timeout $T rm x',
  'env $X',
  'sudo $X',
  'find . $X rm {} \\;',
  'echo ${x@P}',
  'echo ${x@E}',
  'echo ${!x}',
  'echo $(( a[i] ))',
  'echo ${a[$i]}',
  'x="a[\\$(rm y)]"; echo $((x))',
  "x='a[$(rm y)]'; [[ $x -eq 1 ]]",
  "x='a[$(rm y)]'; [[ x -lt 2 ]]",
  "x='a[$(rm y)]'; let y=x",
  "let 'y=a[$(rm x)]'",
  'PATH=.:$PATH; git status',
  'PATH=. git status',
  'export PATH=.:$PATH; git status',
  'declare -x PATH=.; git status',
  'typeset PATH=.',
  'readonly PATH=.',
  'local PATH=.',
  'unset PATH',
  'IFS=/ git status',
  'BASH_ENV=./x bash -c "git status"',
  'ENV=./x sh -c "git status"',
  'LD_PRELOAD=./x.so git status',
  'LD_LIBRARY_PATH=. git status',
  'env PATH=. git status',
  'env LD_PRELOAD=./x.so git status',
  'sudo PATH=. git status',
  'for PATH in .; do git status; done',
  'read PATH',
  'printf -v PATH .',
  '((PATH=1))',
  'echo ${PATH:=.}',
  "env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls",
  'hash -p /bin/rm ls; ls',
  'enable -f ./x.so ls',
  'f() { rm x; }; f',
  'function ls { rm x; }; ls',
  'alias ls=rm; ls x',
  'echo "unterminated',
  'if true; then',
  'git status )',
  "git -c alias.x='!rm x' x",
  'git -c alias.st=push st',
  "git -c core.pager='rm x' log",
  "git -c core.sshCommand='rm x' fetch",
  "git -ccore.editor='rm x' commit",
  'git --config-env=core.pager=X log',
  'git --exec-path=. status',
  'git clone -u rm x',
  'git fetch --upload-pack=rm origin',
  'git difftool -x rm',
  'git filter-branch --tree-filter "rm x"',
  "GIT_SSH_COMMAND='rm x' git fetch",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm x' git log",
  "PAGER='rm x' man ls",
  'PATH=/tmp rm x',
];

/**
 * Programs that run their arguments but are not read as wrappers: a word naming the denied
 * program (by basename) among their arguments makes the line asked as a possible match.
 */
const RUNNERS = [
  'parallel rm ::: x',
  'strace -f rm x',
  'ltrace rm x',
  'nsenter -t 1 -m rm x',
  'systemd-run --user rm x',
  'valgrind --tool=memcheck /bin/rm x',
  'firejail rm x',
  'proot -0 rm x',
  'catchsegv rm x',
  'unbuffer rm x',
  'rlwrap rm x',
  'gdb -ex run --args rm x',
  'perf record rm x',
  'npx rm x',
  'npx -y rm x',
  'npx rm@latest x',
  'pnpm dlx rm@2 x',
  'strace -o log ./RM x',
  'pnpm dlx rm x',
  'bunx rm x',
  'npm exec rm x',
  'npm exec -- rm x',
  'yarn dlx rm x',
  'fakeroot rm x',
  'some-runner --program=rm x',
  'timeout 5 -- rm x',
];

/** A program's own options before the words a rule names: asked, not denied, and only before its first other word. */
const OPTIONS_BEFORE = [
  ['Bash(git push:*)', 'git -C dir push'],
  ['Bash(git push:*)', 'git -c core.quotepath=off push origin'],
  ['Bash(git push:*)', 'git --git-dir=.git push'],
  ['Bash(git push:*)', 'git --git-dir .git --work-tree . push'],
  ['Bash(git push:*)', 'git --no-pager push'],
  ['Bash(git push:*)', 'git -- push'],
  ['Bash(git push --force:*)', 'git -C a push --force'],
  ['Bash(npm publish:*)', 'npm --prefix x publish'],
  ['Bash(npm publish:*)', 'npm --registry=https://r.example publish'],
  ['Bash(docker run:*)', 'docker -H tcp://x run img'],
  ['Bash(docker run:*)', 'sudo docker --context c run img'],
  ['Bash(kubectl delete:*)', 'kubectl -n prod delete pod x'],
];

/** Ordinary lines: allowed by their allow rules with a deny rule for rm in force, and not opaque. */
const ORDINARY = [
  'git status',
  'git status --short',
  'git   status',
  "git status 'src/a b.ts'",
  'npm test',
  'ls -la | grep x',
  'ls -la src | grep -v node_modules',
  'echo hi && git status',
  'echo $HOME',
  'echo "$HOME/x"',
  'echo ${HOME}',
  'echo $((1 + 2))',
  'i=3; echo $((i + 1))',
  'i=3; [[ $i -eq 3 ]] && echo yes',
  '[[ $HOME == /home/x ]] && echo yes',
  'echo ${#HOME}',
  'echo ${a[0]}',
  'ls *.ts',
  'FOO=1 npm test',
  'echo hi 2>&1',
  'echo hi > /dev/null',
  'ls # rm x',
  "echo 'rm x'",
  'echo "rm x"',
  'grep -r "rm -rf" src',
  'echo rm',
  "cat <<'EOF' | grep x\n$(rm x)\nEOF",
  "cat <<'EOF'\n`rm x`\nEOF",
];

/** Everyday lines under typical allow rules for their programs, with a deny rule for rm in force: allowed, not opaque. */
const ORDINARY_TOOLS = [
  'git -C sub status',
  'git -c color.ui=always log --oneline',
  'git log --grep rm',
  'git rm --cached x',
  'git commit -m "rm x"',
  'which rm',
  'man rm',
  'grep -rn rm src',
  'rg rm src',
  'make build',
  'cargo test',
];

describe('a Bash rule judges what will run, not the text', () => {
  test('every spelling of rm is denied by Bash(rm:*), with the command and its wrappers named', async () => {
    for (const line of RUNS_RM) {
      const result = await verdict(denyRm, line);
      assert.equal(result?.effect, 'deny', `${JSON.stringify(line)}: ${result?.reason ?? 'no verdict'}`);
      assert.equal(result.rule.rule, 'Bash(rm:*)');
      assert.match(result.reason ?? '', /runs `.*\brm\b/i, line);
    }
  });

  test('a line whose commands cannot be known is opaque: asked under a deny rule, never allowed', async () => {
    for (const line of OPAQUE) {
      const analysis = await analyseCommandLine(line);
      assert.ok(analysis.opaque.length > 0, `${JSON.stringify(line)} should be opaque`);
      const result = await verdict(denyRm, line);
      assert.ok(result?.effect === 'ask' || result?.effect === 'deny', `${JSON.stringify(line)}: ${result?.effect}`);
      if (result.effect === 'ask') {
        assert.equal(result.opaque, true, line);
        assert.match(result.reason ?? '', /cannot be judged for sure: ./, line);
      }
      // Even a rule that allows every word of it does not allow an opaque line.
      const permissive = [
        rule('allow', 'Bash(git:*)'),
        rule('allow', 'Bash(echo:*)'),
        rule('allow', 'Bash(bash:*)'),
        rule('allow', 'Bash(sh:*)'),
        rule('allow', 'Bash(eval:*)'),
        rule('allow', 'Bash(sudo:*)'),
        rule('allow', 'Bash(env:*)'),
      ];
      assert.equal(await verdict(permissive, line), undefined, `${JSON.stringify(line)} must not be allowed`);
    }
  });

  test('everyday commands naming rm only as text stay allowed under typical allow rules', async () => {
    const typical = ['git', 'npm', 'ls', 'grep', 'rg', 'make', 'cargo', 'which', 'man'].map((name) => rule('allow', `Bash(${name}:*)`));
    for (const line of [...ORDINARY_TOOLS, 'npm test', 'ls | grep x', 'rg foo src', 'git status']) {
      assert.deepEqual((await analyseCommandLine(line)).opaque, [], line);
      const result = await verdict([rule('deny', 'Bash(rm:*)'), rule('deny', 'Bash(git push:*)'), ...typical], line);
      assert.equal(result?.effect, 'allow', `${JSON.stringify(line)}: ${result?.effect} ${result?.reason ?? ''}`);
    }
  });

  test('a program not read as a wrapper that names the denied program among its arguments is asked, never allowed', async () => {
    const permissive = [...denyRm, ...RUNNERS.map((line) => rule('allow', `Bash(${line.split(' ')[0]}:*)`))];
    for (const line of RUNNERS) {
      const result = await verdict(permissive, line);
      assert.ok(result?.effect === 'ask' || result?.effect === 'deny', `${JSON.stringify(line)}: ${result?.effect}`);
      if (result.effect === 'ask') assert.match(result.reason ?? '', /names rm as an argument|runs `.*rm/, line);
    }
  });

  test("a program's own options before a rule's words make a possible match, asked; an exact match stays denied", async () => {
    const everything = ['git', 'npm', 'docker', 'kubectl', 'sudo'].map((name) => rule('allow', `Bash(${name}:*)`));
    for (const [denied, line] of OPTIONS_BEFORE) {
      const result = await verdict([rule('deny', denied!), ...everything], line!);
      assert.equal(result?.effect, 'ask', `${line} under ${denied}: ${result?.effect} ${result?.reason ?? ''}`);
      assert.ok(result.opaque, line);
      assert.match(result.reason ?? '', /options before|cannot be judged/, line);
      assert.equal((await verdict([rule('ask', denied!), ...everything], line!))?.effect, 'ask', line);
    }
    const rules = [rule('deny', 'Bash(git push:*)'), ...everything];
    assert.equal((await verdict(rules, 'git push origin'))?.effect, 'deny');
    // Only the words before the command's first word that is neither an option nor its value are skipped.
    for (const line of ['git log --grep push', 'git -C push status', 'git status', 'git -C sub log -p', 'git show --stat HEAD push']) {
      const result = await verdict(rules, line);
      if (line === 'git -C push status') assert.notEqual(result?.effect, 'deny', line);
      else assert.equal(result?.effect, 'allow', `${line}: ${result?.reason ?? ''}`);
    }
    assert.equal((await verdict([rule('deny', 'Bash(npm publish:*)'), ...everything], 'npm --prefix x test'))?.effect, 'allow');
  });

  test('a very long line and deep nesting are read to the end (the call returns)', async () => {
    const big = `echo ${'a'.repeat(1024 * 1024)}; rm x`;
    assert.equal((await verdict(denyRm, big))?.effect, 'deny');
    const parens = `${'('.repeat(10_000)}rm x${')'.repeat(10_000)}`;
    const result = await verdict(denyRm, parens);
    assert.ok(result?.effect === 'deny' || result?.effect === 'ask', `10,000 nested subshells: ${result?.effect}`);
    const substitutions = `echo ${'$('.repeat(2000)}rm x${')'.repeat(2000)}`;
    const nested = await verdict(denyRm, substitutions);
    assert.ok(nested?.effect === 'deny' || nested?.effect === 'ask', `2,000 nested substitutions: ${nested?.effect}`);
  });

  test('without a deny or ask rule for commands, an opaque line is left to the approval policy', async () => {
    assert.equal(await verdict([rule('allow', 'Bash(echo:*)')], '$(echo rm) x'), undefined);
    assert.equal(await verdict([rule('deny', 'Read(.env)')], '$(echo rm) x'), undefined);
  });

  test('ordinary commands are still allowed and are not opaque', async () => {
    for (const line of ORDINARY) {
      const analysis = await analyseCommandLine(line);
      assert.deepEqual(analysis.opaque, [], line);
      const result = await verdict([...denyRm, rule('allow', 'Bash(cat:*)')], line);
      assert.equal(result?.effect, 'allow', `${JSON.stringify(line)}: ${result?.effect} ${result?.reason ?? ''}`);
    }
  });

  test('arguments are normalised too: Bash(git push --force:*) catches quoted and escaped spellings', async () => {
    const rules = [rule('deny', 'Bash(git push --force:*)'), rule('allow', 'Bash(git:*)')];
    for (const line of [
      "git push '--force'",
      'git push "--force" origin',
      'git push --\\force',
      "git 'push' --force",
      'g\\it push --force',
      'sudo git push --force',
      'bash -c "git push --force"',
      'git push --fo""rce',
    ]) {
      assert.equal((await verdict(rules, line))?.effect, 'deny', line);
    }
    assert.equal((await verdict(rules, 'git push origin'))?.effect, 'allow');
    assert.equal((await verdict(rules, 'git push --force-with-lease'))?.effect, 'allow', 'another word is another word');
  });

  test('a computed word that could make a command match a deny rule asks', async () => {
    const rules = [rule('deny', 'Bash(git push:*)'), rule('allow', 'Bash(git:*)')];
    for (const line of ['git $X origin', 'git "$(echo push)" origin', 'git pu?h origin', 'git {push,x} origin', 'X=push; git $X']) {
      const result = await verdict(rules, line);
      assert.equal(result?.effect, 'ask', `${line}: ${result?.effect}`);
      assert.match(result.reason ?? '', /computed word/, line);
    }
    assert.equal((await verdict(rules, 'git status $X'))?.effect, 'allow', 'a computed word after words that differ cannot match');
    assert.equal((await verdict([rule('deny', 'Bash(rm x)')], 'rm x $Y'))?.effect, 'ask', '$Y may be empty');
  });

  test('the program is matched by basename for deny rules, exactly for allow rules', async () => {
    assert.equal((await verdict([rule('deny', 'Bash(/bin/rm:*)')], 'rm x'))?.effect, 'deny');
    assert.equal((await verdict([rule('deny', 'Bash(rm:*)')], '/opt/x/bin/rm x'))?.effect, 'deny');
    assert.equal(await verdict([rule('allow', 'Bash(git:*)')], './git status'), undefined, 'a file named git is not git');
    assert.equal(await verdict([rule('allow', 'Bash(git:*)')], '/tmp/evil/git status'), undefined);
    assert.equal((await verdict([rule('allow', 'Bash(./gradlew:*)')], './gradlew build'))?.effect, 'allow');
  });

  test('a wrapper is allowed only when its own words and what it runs are each allowed', async () => {
    assert.equal(await verdict([rule('allow', 'Bash(npm test)')], 'sudo npm test'), undefined);
    assert.equal(await verdict([rule('allow', 'Bash(npm test)')], 'timeout 60 npm test'), undefined);
    assert.equal(await verdict([rule('allow', 'Bash(timeout:*)')], 'timeout 60 rm -rf /'), undefined, 'allowing the wrapper does not allow what it runs');
    assert.equal(await verdict([rule('allow', 'Bash(bash:*)')], 'bash -c "rm -rf /"'), undefined);
    assert.equal(await verdict([rule('allow', 'Bash(xargs:*)')], 'xargs rm'), undefined);
    assert.equal((await verdict([rule('allow', 'Bash(timeout:*)'), rule('allow', 'Bash(npm test)')], 'timeout 60 npm test'))?.effect, 'allow');
    assert.equal((await verdict([rule('allow', 'Bash(bash -c)'), rule('allow', 'Bash(npm test)')], 'bash -c "npm test"'))?.effect, 'allow');
    assert.equal((await verdict([rule('allow', 'Bash(xargs:*)'), rule('allow', 'Bash(grep:*)')], 'xargs grep -l x'))?.effect, 'allow');
    // A deny rule that names the wrapper itself holds too.
    assert.equal((await verdict([rule('deny', 'Bash(sudo:*)')], 'env sudo ls'))?.effect, 'deny');
    assert.equal((await verdict([rule('ask', 'Bash(git push:*)')], 'nohup git push origin'))?.effect, 'ask');
  });

  test('commands that only look a program up run nothing', async () => {
    assert.equal((await verdict(denyRm, 'command -v rm'))?.effect, undefined);
    assert.equal((await verdict(denyRm, 'sudo -l rm'))?.effect, undefined);
    assert.equal((await verdict(denyRm, 'type rm'))?.effect, undefined);
    assert.equal((await verdict(denyRm, 'which rm'))?.effect, undefined);
  });

  test('texts run by texts are followed to a limit; deeper is opaque', async () => {
    let line = 'rm x';
    for (let i = 0; i < 5; i++) line = `bash -c ${JSON.stringify(line)}`;
    assert.equal((await verdict(denyRm, line))?.effect, 'deny', line);
    let deep = 'rm x';
    for (let i = 0; i < 12; i++) deep = `eval ${JSON.stringify(deep)}`;
    const result = await verdict(denyRm, deep);
    assert.equal(result?.effect, 'ask');
    assert.match(result.reason ?? '', /nested more than \d+ deep/);
    const long = Array.from({ length: 2000 }, (_, i) => `echo ${i}`).join(' && ');
    assert.equal((await verdict(denyRm, `${long} && /bin/rm x`))?.effect, 'deny', 'a long line is read to its end');
  });

  test('"always allow" offers the normalised commands, a wrapper by its own words, and nothing for an opaque line', async () => {
    const offer = (command: string) => narrowestAllowRules('execute_command', { command }, '/work/app');
    assert.deepEqual(await offer("git push '--force'"), ['Bash(git push --force)']);
    assert.deepEqual(await offer('"npm"   test'), ['Bash(npm test)']);
    assert.deepEqual(await offer("git commit -m 'a b'"), ["Bash(git commit -m 'a b')"]);
    assert.deepEqual(await offer('timeout 60 npm test'), ['Bash(timeout 60)', 'Bash(npm test)']);
    assert.deepEqual(await offer('bash -c "npm test && npm run lint"'), ['Bash(bash -c)', 'Bash(npm test)', 'Bash(npm run lint)']);
    for (const line of ['$(echo rm) x', 'PATH=. git status', 'echo rm x | sh', 'f() { :; }; f']) assert.equal(await offer(line), undefined, line);
    // What is offered allows the line again, and only that.
    const rules = (await offer("git commit -m 'a b'"))!.map((text) => rule('allow', text));
    assert.equal((await verdict(rules, 'git commit -m "a b"'))?.effect, 'allow');
    assert.equal(await verdict(rules, 'git commit -m a b'), undefined);
  });
});
