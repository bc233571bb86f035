import { join, relative, sep } from 'node:path';
import { WORKSPACE_RULES_NAME } from '../rules/rules-loader.js';
import { resolveWorkspacePath } from '../workspace/workspace-paths.js';
import { applyProposedEdit, loadEditTarget } from '../tool-kit/apply-proposed-edit.js';
import { builtInSpec, mistake, type ToolHandler } from '../tool-kit/tool-spec.js';
import { isOutcome, resolveToolPath } from '../tool-kit/tool-paths.js';

/** The workspace path new_rule writes for the path the model gave: inside .smithrules/ unless it names that folder already. */
function rulePathOf(requested: string): string {
  const path = requested.trim();
  return path.startsWith(`${WORKSPACE_RULES_NAME}/`) ? path : join(WORKSPACE_RULES_NAME, path);
}

/** new_rule: writes a Markdown rules file into the workspace's .smithrules folder. */
export const newRuleTool: ToolHandler = {
  spec: builtInSpec({
    name: 'new_rule',
    description: `Create or update a rules file in the workspace's ${WORKSPACE_RULES_NAME}/ folder. Rules are Markdown instructions added to your system prompt in every later request (coding conventions, project facts, preferences the user stated).`,
    params: [
      { name: 'path', required: true, description: `File name inside ${WORKSPACE_RULES_NAME}/, e.g. ${WORKSPACE_RULES_NAME}/testing.md.` },
      { name: 'content', required: true, description: 'The complete Markdown content of the rules file.' },
    ],
    example: `<new_rule>\n<path>${WORKSPACE_RULES_NAME}/style.md</path>\n<content>\n# Style\n- Use two-space indentation.\n</content>\n</new_rule>`,
  }),
  editedPath: (params) => (params.path === undefined ? undefined : rulePathOf(params.path)),
  async execute(params, context) {
    const requested = params.path!.trim();
    const inFolder = rulePathOf(requested);
    const target = resolveToolPath(context, inFolder);
    if (isOutcome(target)) return target;
    const rulesRoot = resolveWorkspacePath(context.cwd, WORKSPACE_RULES_NAME).absolute;
    const rel = relative(rulesRoot, target.absolute);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || !/\.(md|markdown)$/i.test(rel)) {
      return mistake(`new_rule writes Markdown files inside ${WORKSPACE_RULES_NAME}/ only; "${requested}" is not one.`);
    }
    // The rules are in the model's prompt already, so an unread rules file may be rewritten; one
    // that changed since the model last wrote it may not.
    const current = await loadEditTarget(context, target, 'new_rule', { requireRead: false });
    if (current.kind !== 'file' && current.kind !== 'missing') return current;
    const existing = current.kind === 'file' ? current : undefined;
    const content = params.content!.endsWith('\n') ? params.content! : `${params.content!}\n`;
    return applyProposedEdit(context, target, { original: existing?.text ?? '', proposed: content, isNewFile: !existing }, existing?.stamp);
  },
};
