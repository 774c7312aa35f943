// Equality of evidence as data: a reader that rebuilt a session's evidence unchanged hands back the old
// object, so the engine reuses its row (it reuses a derivation only for the very same object).

/**
 * Equality of plain data (what evidence is: records, arrays, strings, numbers, booleans, null).
 * Not `util.isDeepStrictEqual`: its prototype and key-order checks cost time on every append over
 * thousands of sessions (`npm run bench`), which evidence never needs.
 */
export function plainEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!plainEqual(a[index], b[index])) return false;
    return true;
  }
  // Anything but a plain record (a Map, a Date) is equal only to itself.
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !plainEqual(left[key], right[key])) return false;
  return true;
}
