// The address where a pull request of `branch` into `base` is opened on GitHub (or GitHub
// Enterprise), built from the remote's URL when the GitHub CLI is not there to open it. Credentials
// in the URL (`https://user:token@…`) never reach the address; a remote on another kind of host
// gives none, since its pages are laid out differently.

/** `https://HOST/OWNER/REPO/compare/BASE...BRANCH?expand=1` for a GitHub-style remote URL, else undefined. */
export function compareUrl(remoteUrl: string, base: string, branch: string): string | undefined {
  const place = hostAndPath(remoteUrl.trim());
  if (!place) return undefined;
  const host = place.host.toLowerCase();
  if (!/^[a-z0-9.-]+(:\d+)?$/.test(host) || !/(^|\.)github(\.|$)|^github[a-z0-9-]*\./.test(host.replace(/:\d+$/, ''))) return undefined;
  const segments = place.path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .split('/');
  if (segments.length !== 2 || !segments.every((segment) => /^[A-Za-z0-9_.-]+$/.test(segment) && !/^\.+$/.test(segment))) return undefined;
  return `https://${host}/${segments.join('/')}/compare/${refInPath(base)}...${refInPath(branch)}?expand=1`;
}

/** The host and the path of a remote URL: `scheme://[user@]host[:port]/path` or scp-like `[user@]host:path`. */
function hostAndPath(url: string): { host: string; path: string } | undefined {
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/]+)(\/.*)$/i.exec(url);
  if (withScheme) {
    const scheme = withScheme[1]!.toLowerCase();
    if (!['https', 'http', 'ssh', 'git', 'git+ssh', 'ssh+git'].includes(scheme)) return undefined;
    // An ssh or git port is not the web server's.
    const host = scheme === 'https' || scheme === 'http' ? withScheme[2]! : withScheme[2]!.replace(/:\d+$/, '');
    return { host, path: withScheme[3]! };
  }
  // scp-like syntax: no slash before the first colon (else it is a local path).
  const scp = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/.exec(url);
  if (scp) return { host: scp[1]!, path: scp[2]! };
  return undefined;
}

/** A branch name in the address's path: each part percent-encoded, the slashes kept (GitHub reads `smith/x` as one branch). */
function refInPath(ref: string): string {
  return ref.split('/').map(encodeURIComponent).join('/');
}
