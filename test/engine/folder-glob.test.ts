// Issue 25 item 3: folder globs matched name by name, two pointers each, never a backtracking
// RegExp. The meaning stays the one status-model.md §4b gives; the hang is shown by
// test/main/commands/rule-glob-process.test.ts (the old matcher never returns, so it runs in a process).
import { describe, expect, it } from 'vitest';
import { FOLDER_GLOB_MAX, globMatch, literalGlob } from '../../src/engine';

/** The old matcher (a RegExp), as a reference for patterns without `**` on inputs too small to hang. */
function oldMatch(pattern: string, path: string): boolean {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += (pattern[index] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`).test(path);
}

/** A small deterministic generator: the same cases on every run. */
function* strings(alphabet: string, count: number, seed: number): Generator<string> {
  let state = seed;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  for (let made = 0; made < count; made += 1) {
    const length = next() % 8;
    let text = '';
    for (let index = 0; index < length; index += 1) text += alphabet[next() % alphabet.length] ?? '';
    yield text;
  }
}

describe('folder globs (issue 25 item 3)', () => {
  it('issue 25 item 3: without "**", the same answers as the old RegExp on 40,000 small cases', () => {
    const paths = [...strings('ab-/', 200, 7)];
    let compared = 0;
    for (const pattern of strings('ab-/*?\\', 200, 11)) {
      if (pattern.includes('**')) continue;
      for (const path of paths) {
        expect([pattern, path, globMatch(pattern, path)]).toEqual([pattern, path, oldMatch(pattern, path)]);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(20_000);
  });

  it('issue 25 item 3: "**" alone spans any number of names, none too; within a name it is "*"', () => {
    expect(globMatch('/home/me/work/noisy/**', '/home/me/work/noisy')).toBe(true);
    expect(globMatch('/home/me/work/noisy/**', '/home/me/work/noisy/api/src')).toBe(true);
    expect(globMatch('/home/me/work/noisy/**', '/home/me/work/noisy-other')).toBe(false);
    expect(globMatch('/home/**/api', '/home/api')).toBe(true);
    expect(globMatch('/home/**/api', '/home/me/work/api')).toBe(true);
    expect(globMatch('/home/**/api', '/home/me/work/api/x')).toBe(false);
    expect(globMatch('/**/a/**/b', '/x/a/y/z/b')).toBe(true);
    expect(globMatch('/**/a/**/b', '/x/b/y/z/a')).toBe(false);
    expect(globMatch('/**', '/')).toBe(true);
    expect(globMatch('/home/me/src**', '/home/me/src-old')).toBe(true);
    expect(globMatch('/home/me/src**', '/home/me/src/old')).toBe(false);
    expect(globMatch('/home/\\**', '/home/*x')).toBe(true);
    expect(globMatch('/home/\\**', '/home/x')).toBe(false);
  });

  it('issue 25 item 3: a literal folder stays literal; escapes, "?" and an escaped "/"', () => {
    const odd = '/home/me/(x)+[y]*?\\z';
    expect(globMatch(literalGlob(odd), odd)).toBe(true);
    expect(globMatch(literalGlob(odd), '/home/me/(x)+[y]ab\\z')).toBe(false);
    expect(globMatch('/home/?e', '/home/me')).toBe(true);
    expect(globMatch('/home?me', '/home/me')).toBe(false);
    expect(globMatch('/home\\/me', '/home/me')).toBe(true);
    expect(globMatch('/home/me\\', '/home/me\\')).toBe(true);
  });

  it('issue 25 item 3: pathological globs answer at once, and a folder past PATH_MAX matches nothing', () => {
    const stars = `/${'*a'.repeat(60)}*b`;
    expect(stars.length).toBeLessThan(FOLDER_GLOB_MAX);
    expect(globMatch(stars, `/${'a'.repeat(4000)}`)).toBe(false);
    expect(globMatch(stars, `/${'a'.repeat(4000)}b`)).toBe(true);
    expect(globMatch(`/${'**/a/'.repeat(40)}b`, `/${'a/'.repeat(2000)}`)).toBe(false);
    expect(globMatch('/home/me/src/*-*-*', `/home/me/src/${'-'.repeat(4000)}/x`)).toBe(false);
    expect(globMatch('/**', `/${'a'.repeat(5000)}`)).toBe(false);
  });
});
