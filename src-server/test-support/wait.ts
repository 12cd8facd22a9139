/**
 * Checks `check` every `everyMs` until it returns something truthy, and returns that; fails with
 * `what` after `ms`. The deadline only ends a test that would never pass: it is generous (30 s)
 * because a loaded machine is slow, and no test asserts how soon the condition held.
 */
export async function waitUntil<T>(
  what: string,
  check: () => T | Promise<T>,
  ms = 30_000,
  everyMs = 20,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`${what}: still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
