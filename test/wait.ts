// Waiting for a condition, never for a fixed time: a loaded machine only makes it slower. The one
// wait every test uses (the live lab's, the fast suite's).

export interface WaitOptions {
  /** How long before giving up, in ms (generous: agents start slowly on two busy cores). */
  timeout?: number;
  /** Between looks, in ms. */
  every?: number;
}

/**
 * Looks until `check` returns a value that is not undefined; on time-out, throws with what the
 * last look saw (`describe`), so a failure says what the lab saw instead.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  describe: () => string = () => '',
  options: WaitOptions = {},
): Promise<T> {
  const timeout = options.timeout ?? 90_000;
  const every = options.every ?? 250;
  const deadline = Date.now() + timeout;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
      lastError = null;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const seen = describe();
      throw new Error(
        `waited ${timeout} ms for ${what}${lastError === null ? '' : ` (last error: ${String(lastError)})`}${seen === '' ? '' : `\n--- last seen ---\n${seen}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

/** `waitFor` for a yes-or-no condition: looks until it holds (20 s by default, every 25 ms). */
export async function until(what: string, condition: () => boolean, describe: () => string = () => '', options: WaitOptions = {}): Promise<void> {
  await waitFor(what, () => (condition() ? true : undefined), describe, { timeout: 20_000, every: 25, ...options });
}
