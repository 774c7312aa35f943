// A map read as an earlier map with some values replaced, without copying the earlier one: a beat
// replaces a few of 2,000 derivations (issue 27), and copying all of them made every beat O(rows).

/** Replacements ride on top while they are at most this fraction of the whole; past it, one plain map again. */
const TOP_SHARE = 1 / 8;

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly top: ReadonlyMap<K, V>,
  ) {}

  /**
   * `before` with the values of `replaced` for its keys. Layered only when every such key is one
   * `before` has (its size and order then stay the base's); a plain map otherwise.
   */
  static replacing<K, V>(before: ReadonlyMap<K, V>, replaced: Iterable<readonly [K, V]>): ReadonlyMap<K, V> {
    const layered = before instanceof LayeredMap ? (before as LayeredMap<K, V>) : null;
    const base = layered?.base ?? before;
    const top = new Map(layered?.top ?? []);
    let onlyKnownKeys = true;
    for (const [key, value] of replaced) {
      top.set(key, value);
      if (!base.has(key)) onlyKnownKeys = false;
    }
    if (onlyKnownKeys && top.size <= base.size * TOP_SHARE) return new LayeredMap(base, top);
    const merged = new Map(base);
    for (const [key, value] of top) merged.set(key, value);
    return merged;
  }

  get size(): number {
    return this.base.size;
  }

  has(key: K): boolean {
    return this.base.has(key);
  }

  get(key: K): V | undefined {
    return this.top.has(key) ? this.top.get(key) : this.base.get(key);
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.base) yield [key, this.valueAt(key, value)];
  }

  *keys(): MapIterator<K> {
    yield* this.base.keys();
  }

  *values(): MapIterator<V> {
    for (const [key, value] of this.base) yield this.valueAt(key, value);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  /** The value on top for `key`, or the base's `value` when it was not replaced. */
  private valueAt(key: K, value: V): V {
    const replaced = this.top.get(key);
    // An undefined from get is a replaced value only when the key is on top (V may hold undefined).
    return replaced !== undefined || this.top.has(key) ? (replaced as V) : value;
  }
}
