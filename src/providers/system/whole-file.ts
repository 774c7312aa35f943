// Files an agent (or Lookout) rewrites whole, read whole again only when their stamp changed:
// through the safe reader (a regular file, under a cap, never a blocking open), kept by path, and
// forgotten once gone. What a text means, and what an unreadable file gives, is each caller's.
import type { Stats } from 'node:fs';
import type { LinkRule } from './file-stamp';
import { stampOf, statBy } from './file-stamp';
import { readRegularText } from './safe-read';

/** A value for the file; `again`: not to be trusted until read again (caught mid-write), even unchanged. */
export interface Settled<T> {
  value: T;
  again?: boolean;
}

export interface WholeFileRules<T> {
  /** The most bytes the file may have. */
  cap: number;
  /** How a link is stamped; the read itself always goes to the file it names. */
  links?: LinkRule;
  /** What the text says; `previous` is the last value of this path. */
  parse(text: string, previous: T | undefined): Settled<T>;
  /** What a file that is there but could not be read gives (the caller says so where it should). */
  unreadable(error: unknown, path: string, previous: T | undefined): Settled<T>;
  /** What was kept of this very file elsewhere (an index), in place of reading it; null to read. */
  recall?(path: string, info: Stats): Settled<T> | null;
}

export type WholeRead<T> =
  /** The stat failed: not there (usual: written later, or removed), or not to be seen. */
  | { kind: 'gone'; error: unknown }
  /** `fresh`: read (or recalled) now, not the value kept from before. */
  | { kind: 'read'; value: T; stamp: string; info: Stats; fresh: boolean; again: boolean };

export class WholeFiles<T> {
  private readonly known = new Map<string, { stamp: string } & Settled<T>>();

  constructor(private readonly rules: WholeFileRules<T>) {}

  read(path: string): WholeRead<T> {
    let info: Stats;
    try {
      info = statBy(path, this.rules.links ?? 'follow');
    } catch (error) {
      this.known.delete(path);
      return { kind: 'gone', error };
    }
    const stamp = stampOf(info);
    const known = this.known.get(path);
    if (known !== undefined && known.stamp === stamp && known.again !== true)
      return { kind: 'read', value: known.value, stamp, info, fresh: false, again: false };
    const settled = this.rules.recall?.(path, info) ?? this.settle(path, known?.value);
    this.known.set(path, { stamp, ...settled });
    return { kind: 'read', value: settled.value, stamp, info, fresh: true, again: settled.again === true };
  }

  private settle(path: string, previous: T | undefined): Settled<T> {
    let text: string;
    try {
      text = readRegularText(path, this.rules.cap);
    } catch (error) {
      return this.rules.unreadable(error, path, previous);
    }
    return this.rules.parse(text, previous);
  }

  /** Forgets the files no longer there. */
  keep(paths: ReadonlySet<string>): void {
    for (const path of this.known.keys()) if (!paths.has(path)) this.known.delete(path);
  }
}
