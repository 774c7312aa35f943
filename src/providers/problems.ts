// Problems met while reading provider files: counted, and each kind reported once (never per event).

export interface Problem {
  kind: 'unreadable' | 'malformed-lines' | 'oversized-lines' | 'vanished';
  path: string;
  detail: string;
}

export class Problems {
  private readonly seen = new Set<string>();
  private readonly fresh: Problem[] = [];
  unreadable = 0;

  add(problem: Problem): void {
    if (problem.kind === 'unreadable') this.unreadable += 1;
    const key = `${problem.kind}:${problem.path}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.fresh.push(problem);
  }

  /** A file that could not be read; one simply not there (written later, or removed) is no problem. */
  unreadableUnlessGone(path: string, error: unknown): void {
    if (errorCode(error) !== 'ENOENT') this.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
  }

  /** Problems not yet reported; each is handed out once. */
  drain(): Problem[] {
    return this.fresh.splice(0, this.fresh.length);
  }
}

/** Node's error code, if the error carries one. */
export function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}
