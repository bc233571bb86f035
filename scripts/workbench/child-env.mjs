// Environments for the programs the workbench scripts start. Under `npm test` the parent npm
// exports its own state: a user agent naming Node 20 (code-server's postinstall reads it), its
// prefix and the repository as local prefix (a nested npm would install there), node-gyp's
// nodedir. A nested npm or code-server must not inherit those, nor an editor's VSCODE_* hooks.
// Configuration a user set (registry, cache, proxy, cafile) is kept.
const INHERITED_NOISE = new RegExp(
  '^(' +
    [
      'npm_package_.*',
      'npm_lifecycle_.*',
      'npm_command',
      'npm_execpath',
      'npm_node_execpath',
      'npm_config_(user_agent|local_prefix|prefix|global_prefix|node_gyp|nodedir|allow_scripts|npm_version|argv)',
      'INIT_CWD',
      'NODE',
      'NODE_OPTIONS',
      'NODE_PATH',
      'VSCODE_.*',
      'ELECTRON_RUN_AS_NODE',
    ].join('|') +
    ')$',
  'i',
);

/** process.env without the parent npm's and editor's variables, plus `extra`. */
export function cleanChildEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !INHERITED_NOISE.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}
