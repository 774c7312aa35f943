// The map a beat's derivations are kept in: an earlier map with some values replaced reads, in
// every way a Map is read, exactly as a plain copy with those values set (issue 27).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayeredMap } from '../../src/engine/layered-map';

/** Everything a reader can see of a map, in order. */
function seen(map: ReadonlyMap<string, number>, probe: readonly string[]): unknown {
  const each: [string, number][] = [];
  map.forEach((value, key) => {
    each.push([key, value]);
  });
  return { size: map.size, entries: [...map], keys: [...map.keys()], values: [...map.values()], each, got: probe.map((key) => [map.get(key), map.has(key)]) };
}

describe('issue 27: LayeredMap', () => {
  it('after any chain of replacements (known keys and new ones) reads as the plain map it stands for', () => {
    const key = fc.integer({ min: 0, max: 60 }).map((n) => `k${n}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 0, maxLength: 60 }),
        fc.array(fc.array(fc.tuple(key, fc.integer()), { maxLength: 6 }), { maxLength: 30 }),
        (keys, batches) => {
          const model = new Map(keys.map((name, index) => [name, index]));
          let map: ReadonlyMap<string, number> = new Map(model);
          const probe = [...keys, 'k61', 'absent'];
          for (const batch of batches) {
            map = LayeredMap.replacing(map, batch);
            for (const [name, value] of batch) model.set(name, value);
            expect(seen(map, probe)).toEqual(seen(model, probe));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps replacements on top while they are few, and merges into one plain map past an eighth', () => {
    const base = new Map(Array.from({ length: 80 }, (_, index) => [`k${index}`, index]));
    let map: ReadonlyMap<string, number> = base;
    for (let index = 0; index < 10; index += 1) {
      map = LayeredMap.replacing(map, [[`k${index}`, -index]]);
      expect(map).toBeInstanceOf(LayeredMap);
    }
    map = LayeredMap.replacing(map, [['k10', -10]]);
    expect(map).not.toBeInstanceOf(LayeredMap);
    expect(map.get('k10')).toBe(-10);
    // A key the base lacks is never laid on top: the size and order would be the base's.
    expect(LayeredMap.replacing(base, [['new', 1]])).not.toBeInstanceOf(LayeredMap);
    expect(base.get('k0')).toBe(0);
  });
});
