import { analyseCommandLine, type ShellCommand } from '../permissions/shell-commands.js';
import { gitSubcommandIndex } from '../permissions/shell-wrappers.js';
import { commandBasename } from '../permissions/wrapper-options.js';

/**
 * Commands known to act on other machines: what a preview cannot show (it has no network, and
 * what they would change is not in the workspace). Each entry judges a command's words (the
 * program first, wrappers already unwrapped by the permissions' shell reading) and names the
 * effect, or returns undefined.
 */
const REMOTE: Record<string, (args: readonly string[]) => string | undefined> = {
  git: () => undefined, // judged by gitEffect, which needs git's option positions
  npm: packagePublish,
  pnpm: packagePublish,
  yarn: (args) => (args[0] === 'npm' ? packagePublish(args.slice(1)) : packagePublish(args)),
  bun: packagePublish,
  cargo: (args) => (['publish', 'yank', 'owner', 'login'].includes(args[0] ?? '') ? `cargo ${args[0]} changes crates.io` : undefined),
  gem: (args) => (['push', 'yank', 'owner'].includes(args[0] ?? '') ? `gem ${args[0]} changes a gem server` : undefined),
  twine: (args) => (args[0] === 'upload' ? 'twine upload publishes to a package index' : undefined),
  poetry: (args) => (args[0] === 'publish' ? 'poetry publish publishes to a package index' : undefined),
  docker: containerPush,
  podman: containerPush,
  gh: (args) => `${['gh', ...args.slice(0, 1)].join(' ')} works on GitHub`,
  ssh: () => 'ssh runs commands on another machine',
  scp: () => 'scp copies files to or from another machine',
  sftp: () => 'sftp copies files to or from another machine',
  ftp: () => 'ftp reaches another machine',
  rsync: (args) => (args.some((a) => !a.startsWith('-') && /^[^/]*::|^[^/]+:/.test(a)) ? 'rsync copies to or from another machine' : undefined),
  curl: curlEffect,
  wget: (args) =>
    args.some((a) => /^--(?:post-data|post-file|body-data|body-file)(?:=|$)/.test(a) || /^--method=(?!GET$|HEAD$)/i.test(a))
      ? 'wget sends data to a server'
      : undefined,
  http: httpieEffect,
  https: httpieEffect,
  xh: httpieEffect,
  kubectl: (args) =>
    /^(?:apply|create|delete|patch|replace|scale|rollout|edit|label|annotate|set|drain|cordon|uncordon|exec|cp|run|expose|autoscale|taint)$/.test(args[0] ?? '')
      ? `kubectl ${args[0]} changes a cluster`
      : undefined,
  helm: (args) => (/^(?:install|upgrade|uninstall|rollback|delete|push)$/.test(args[0] ?? '') ? `helm ${args[0]} changes a cluster or registry` : undefined),
  terraform: (args) => (/^(?:apply|destroy|import)$/.test(args[0] ?? '') ? `terraform ${args[0]} changes real infrastructure` : undefined),
  tofu: (args) => (/^(?:apply|destroy|import)$/.test(args[0] ?? '') ? `tofu ${args[0]} changes real infrastructure` : undefined),
  pulumi: (args) => (/^(?:up|destroy|update|import)$/.test(args[0] ?? '') ? `pulumi ${args[0]} changes real infrastructure` : undefined),
  aws: () => 'aws acts on Amazon Web Services',
  gcloud: () => 'gcloud acts on Google Cloud',
  az: () => 'az acts on Azure',
  heroku: () => 'heroku acts on Heroku',
  vercel: () => 'vercel acts on Vercel',
  netlify: () => 'netlify acts on Netlify',
  flyctl: () => 'flyctl acts on Fly.io',
  fly: () => 'fly acts on Fly.io',
  firebase: (args) => (args[0] === 'deploy' ? 'firebase deploy publishes a site' : undefined),
};

const GIT_REMOTE = new Set(['push', 'send-email', 'request-pull']);

/** The remote effects a command line is known to have, one line each (empty when none is known). */
export async function remoteEffects(line: string): Promise<string[]> {
  const parsed = await analyseCommandLine(line);
  return [...new Set(parsed.commands.flatMap((command) => effectOf(command) ?? []))];
}

function effectOf(command: ShellCommand): string | undefined {
  const values = command.words.map((w) => w.value);
  const name = commandBasename(values[0] ?? '');
  if (name === 'git') return gitEffect(command);
  // `python -m twine upload`
  if (/^python[\d.]*$/.test(name) && values[1] === '-m' && values[2]) return REMOTE[values[2]]?.(values.slice(3));
  if (!Object.hasOwn(REMOTE, name)) return undefined;
  return REMOTE[name]!(values.slice(1));
}

function gitEffect(command: ShellCommand): string | undefined {
  const at = gitSubcommandIndex(command.words);
  const sub = at >= 0 ? command.words[at]!.value : undefined;
  if (sub && GIT_REMOTE.has(sub)) return `git ${sub} changes another repository or sends mail`;
  if (sub === 'svn' && command.words[at + 1]?.value === 'dcommit') return 'git svn dcommit changes a Subversion server';
  return undefined;
}

function packagePublish(args: readonly string[]): string | undefined {
  const sub = args.find((a) => !a.startsWith('-'));
  if (!sub) return undefined;
  if (['publish', 'unpublish', 'deprecate', 'undeprecate', 'owner', 'access', 'star', 'unstar', 'team', 'hook', 'adduser', 'login', 'logout'].includes(sub)) {
    return `${sub} changes the package registry`;
  }
  if (sub === 'dist-tag' && /^(?:add|rm)$/.test(args[args.indexOf(sub) + 1] ?? '')) return 'dist-tag changes the package registry';
  return undefined;
}

function containerPush(args: readonly string[]): string | undefined {
  const sub = args.find((a) => !a.startsWith('-'));
  if (sub === 'push' || sub === 'login') return `${sub} reaches a container registry`;
  if (sub === 'image' || sub === 'manifest') return args.includes('push') ? 'push reaches a container registry' : undefined;
  return undefined;
}

function curlEffect(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const method = /^(?:-X|--request)(?:=?)(.*)$/.exec(a);
    if (method) {
      const value = (method[1] || args[i + 1] || '').toUpperCase();
      if (value !== 'GET' && value !== 'HEAD' && value !== '') return `curl -X ${value} sends a request that may change a server`;
    }
    if (/^(?:-d|--data(?:-\w+)?|-F|--form(?:-string)?|-T|--upload-file|--json)(?:=|$)/.test(a) || /^-[a-zA-Z]*[dFT]/.test(a)) {
      return 'curl sends data to a server';
    }
  }
  return undefined;
}

function httpieEffect(args: readonly string[]): string | undefined {
  const first = args.find((a) => !a.startsWith('-'));
  if (first && /^(?:POST|PUT|PATCH|DELETE)$/i.test(first)) return `${first.toUpperCase()} sends a request that may change a server`;
  if (args.some((a) => /^[^:=/]+:?=/.test(a))) return 'sends data to a server';
  return undefined;
}
