// Installs the Debian packages the real workbench needs. apt-get is used only when we are root;
// otherwise the error names the packages so a developer can install them by hand.
import { execFileSync, spawnSync } from 'node:child_process';

/** True when `binary` is found on PATH. */
export function onPath(binary) {
  return spawnSync('sh', ['-c', `command -v "${binary}"`], { stdio: 'ignore' }).status === 0;
}

/** True when dpkg reports the package installed (false where dpkg is missing). */
export function debInstalled(pkg) {
  const probe = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return probe.status === 0 && probe.stdout.includes('install ok installed');
}

/**
 * Installs each `{ pkg, present, why }` whose `present()` is false.
 * Returns the names installed; throws with the list when it cannot install.
 */
export function ensureAptPackages(needs, log) {
  const missing = needs.filter((need) => !need.present());
  if (missing.length === 0) return [];
  const names = missing.map((need) => need.pkg);
  const canApt = process.getuid?.() === 0 && onPath('apt-get');
  if (!canApt) {
    const reasons = missing.map((need) => `  ${need.pkg}: ${need.why}`).join('\n');
    throw new Error(`Missing Debian packages:\n${reasons}\nInstall them with: sudo apt-get install -y ${names.join(' ')}`);
  }
  log(`apt-get install ${names.join(' ')}`);
  // Another process (a parallel test run, unattended-upgrades) may hold the dpkg lock: wait for it.
  const apt = (args) =>
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', '--no-install-recommends', ...names]);
  } catch {
    // A fresh machine's package lists may be empty or stale; refresh once and retry.
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...names]);
  }
  const still = missing.filter((need) => !need.present());
  if (still.length > 0) throw new Error(`apt-get did not provide: ${still.map((need) => need.pkg).join(', ')}`);
  return names;
}
