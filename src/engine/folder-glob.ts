// A rule's folder glob, matched in time bounded by pattern × folder (issue 25 item 3): no
// backtracking RegExp, whose cost grows exponentially with the stars. Pure.

/** The longest folder glob `rules add` takes (settings.json holds "/" or "~/" and 500 more). */
export const FOLDER_GLOB_MAX = 500;
/** A folder longer than this is no folder (PATH_MAX): it matches no glob, and costs nothing. */
const FOLDER_MATCH_MAX = 4096;

type Token = { kind: 'literal'; char: string } | { kind: 'one' } | { kind: 'star' };
/** One name of the pattern: `**` alone (any number of names, none too), or its tokens. */
type Segment = { kind: 'globstar' } | { kind: 'name'; tokens: readonly Token[] };

/** A folder as a glob that matches just it: its `*`, `?` and `\` escaped. */
export function literalGlob(folder: string): string {
  return folder.replace(/[*?\\]/g, '\\$&');
}

/**
 * `*` any characters but "/", `**` as a whole name any number of names (so "a/**" also matches
 * "a" itself; elsewhere in a name it is `*`), `?` one character but "/", `\` takes the next one
 * as it is.
 */
export function globMatch(pattern: string, path: string): boolean {
  if (path.length > FOLDER_MATCH_MAX) return false;
  return namesMatch(compiled(pattern), path.split('/'));
}

/** Each pattern read once (every session meets every rule at every evaluation); a few hundred kept. */
const cache = new Map<string, readonly Segment[]>();
const CACHE_KEEP = 256;
function compiled(pattern: string): readonly Segment[] {
  const known = cache.get(pattern);
  if (known !== undefined) return known;
  const segments = compile(pattern);
  if (cache.size >= CACHE_KEEP) cache.clear();
  cache.set(pattern, segments);
  return segments;
}

function compile(pattern: string): Segment[] {
  const segments: Segment[] = [];
  let tokens: Token[] = [];
  let stars = 0;
  let others = 0;
  const close = (): void => {
    // Two or more bare stars and nothing else: any depth (the old `**`, and `***` as it read).
    segments.push(stars >= 2 && others === 0 ? { kind: 'globstar' } : { kind: 'name', tokens });
    tokens = [];
    stars = 0;
    others = 0;
  };
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '/') close();
    else if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      const next = pattern[index] ?? '';
      // An escaped "/" still parts names: no name holds one.
      if (next === '/') close();
      else {
        tokens.push({ kind: 'literal', char: next });
        others += 1;
      }
    } else if (char === '*') {
      stars += 1;
      // Stars in a row are one star (within a name).
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else {
      tokens.push(char === '?' ? { kind: 'one' } : { kind: 'literal', char });
      others += 1;
    }
  }
  close();
  return segments;
}

/**
 * The two-pointer wildcard match, over names with `**` as the star: on a mismatch, only the last
 * `**` takes one more name. Each (segment, name) pair is tried at most once.
 */
function namesMatch(segments: readonly Segment[], names: readonly string[]): boolean {
  let s = 0;
  let n = 0;
  let starS = -1;
  let starN = 0;
  while (n < names.length) {
    const segment = segments[s];
    if (segment?.kind === 'globstar') {
      starS = s;
      starN = n;
      s += 1;
    } else if (segment !== undefined && nameMatch(segment.tokens, names[n] ?? '')) {
      s += 1;
      n += 1;
    } else if (starS >= 0) {
      s = starS + 1;
      starN += 1;
      n = starN;
    } else return false;
  }
  while (segments[s]?.kind === 'globstar') s += 1;
  return s === segments.length;
}

/** The same within one name, `*` as the star: each (token, character) pair is tried at most once. */
function nameMatch(tokens: readonly Token[], name: string): boolean {
  let t = 0;
  let c = 0;
  let starT = -1;
  let starC = 0;
  while (c < name.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      starT = t;
      starC = c;
      t += 1;
    } else if (token !== undefined && (token.kind === 'one' || token.char === name[c])) {
      t += 1;
      c += 1;
    } else if (starT >= 0) {
      t = starT + 1;
      starC += 1;
      c = starC;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t += 1;
  return t === tokens.length;
}
