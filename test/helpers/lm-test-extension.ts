// The extension that offers scripted language models through vscode.lm
// (test/fixtures/vscode-lm-extension), packaged to be installed beside Smith in the workbench.
import { join } from 'node:path';
import { packageTestExtension } from '../../scripts/workbench/package-vsix.mjs';
import { REPO_ROOT } from '../../scripts/workbench/workbench-cache.mjs';

/** Packages the scripted language models' extension and returns its .vsix. */
export function packageLmTestExtension(): string {
  return packageTestExtension({ root: join(REPO_ROOT, 'test/fixtures/vscode-lm-extension'), out: join(REPO_ROOT, 'out/vsix/smith-test-language-models.vsix') });
}
