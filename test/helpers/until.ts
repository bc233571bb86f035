/**
 * Polls `condition` until it gives a value (anything but undefined, false, 0 or ''), and returns
 * it; fails naming `what` once `timeoutMs` has passed. The margin is wide: a busy machine is slow.
 */
export async function until<T>(condition: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
