// One install at a time per cache: parallel `npm test` runs on one machine would otherwise
// delete and rebuild the same code-server folder under each other.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function holder(lock) {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || null;
  } catch {
    return null;
  }
}

function isStale(lock) {
  const pid = holder(lock);
  if (pid) return !alive(pid);
  // Just created, pid not written yet; or left by a holder that died in between.
  try {
    return Date.now() - statSync(lock).mtimeMs > 10_000;
  } catch {
    return true;
  }
}

/** Runs `fn` holding `<cacheDir>/install.lock`; waits while a live process holds it. */
export async function withInstallLock(cacheDir, log, fn) {
  const lock = join(cacheDir, 'install.lock');
  mkdirSync(cacheDir, { recursive: true });
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (isStale(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!announced) log(`waiting for another install (pid ${holder(lock) ?? '?'}) to finish`);
      announced = true;
      await sleep(2000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
