import { APPROVE_ALL_POLICY, DEFAULT_POLICY, type AutoApprovePolicy } from '../core/log/approval-policy.js';
import type { CliOptions } from './cli-options.js';

/** Maps the approval flags onto the engine's policy: --yes is everything, --auto-approve picks switches. */
export function policyFromFlags(options: Pick<CliOptions, 'yes' | 'autoApprove' | 'allowOutsideWorkspace' | 'maxConsecutive'>): AutoApprovePolicy {
  if (options.yes) return { ...APPROVE_ALL_POLICY, outsideWorkspace: options.allowOutsideWorkspace, maxConsecutive: options.maxConsecutive };
  const flags = new Set(options.autoApprove);
  return {
    ...DEFAULT_POLICY,
    readFiles: true,
    editFiles: flags.has('edit'),
    safeCommands: flags.has('safe-commands') || flags.has('commands'),
    allCommands: flags.has('commands'),
    mcpTools: flags.has('mcp'),
    browser: flags.has('browser'),
    outsideWorkspace: options.allowOutsideWorkspace,
    maxConsecutive: options.maxConsecutive,
  };
}
