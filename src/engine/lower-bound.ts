// The engine's one binary search: sorted lists of derivations, rows and offsets are searched alike.

/**
 * The first index at which `before` no longer holds, in a list where it holds for a prefix and
 * then never again (the list is sorted by what `before` tests).
 */
export function lowerBound<T>(items: readonly T[], before: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(items[middle] as T)) low = middle + 1;
    else high = middle;
  }
  return low;
}
