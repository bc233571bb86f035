// Which commands a preview names as acting on other machines, read with the permissions' shell
// grammar (tree-sitter-bash), so wrappers, `sh -c` texts and git's own options are seen through.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { remoteEffects } from '../../../src/core/preview/remote-effects.js';

test('remote effects are found through wrappers, shells, options and pipelines', async () => {
  for (const line of [
    'git push',
    'git -C ../other -c user.name=x push --tags',
    'nohup git send-email *.patch',
    'sudo -u ci npm publish --access public',
    'pnpm -r publish',
    'yarn npm publish',
    'cargo publish',
    'python3 -m twine upload dist/*',
    'sh -c "make && docker push img"',
    'curl -XPOST https://api.example.com',
    'curl --request DELETE https://api.example.com/x',
    'curl -F file=@a.txt https://x',
    'wget --post-data a=1 https://x',
    'http PUT example.com/x a=1',
    'echo y | ssh host "cat > f"',
    'rsync -a dist/ host:/srv/www',
    'scp a host:b',
    'kubectl apply -f deploy.yaml',
    'terraform apply -auto-approve',
    'gh pr create --fill',
    'aws s3 cp a s3://bucket/a',
    'npm dist-tag add pkg@1.0.0 latest',
  ]) {
    assert.notDeepEqual(await remoteEffects(line), [], line);
  }
});

test('local work is not named', async () => {
  for (const line of [
    'git status && git commit -am x && git log',
    'git -c push.default=simple status',
    'npm test',
    'npm run publish-docs-locally',
    'cargo build --release',
    'curl -o page.html https://example.com',
    'curl -X GET https://example.com',
    'wget https://example.com/file.tgz',
    'rsync -a src/ backup/',
    'docker build -t img .',
    'kubectl get pods',
    'terraform plan',
    'echo git push',
    'grep -r "npm publish" docs',
  ]) {
    assert.deepEqual(await remoteEffects(line), [], line);
  }
});
