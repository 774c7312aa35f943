// A SQLite file another program writes, read without disturbing it: read-only (closing never
// checkpoints or removes its -wal), a busy timeout that only ever makes Lookout wait, and short
// statements by its callers (no read transaction left open to hold back the writer's checkpoints).
// Rows still in the -wal are read. A folder Lookout cannot write lacks a -shm to share: the files
// are copied aside and read there.
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileStamp } from './file-stamp';

export type Row = Record<string, unknown>;

interface Statement {
  all(...params: unknown[]): Row[];
}

export interface Connection {
  prepare(sql: string): Statement;
  close(): void;
}

/**
 * The native SQLite module, loaded only where an agent's database exists (every other run never
 * pays for it), with `require`: the command line runs from a code cache where `import()` is not
 * available. From the bundle (CommonJS) its own path; under the test runner, the project's root.
 */
function loadSqlite(): typeof import('@photostructure/sqlite') {
  const { createRequire } = process.getBuiltinModule('node:module');
  const from = typeof __filename === 'string' ? __filename : join(process.cwd(), 'package.json');
  return createRequire(from)('@photostructure/sqlite') as typeof import('@photostructure/sqlite');
}

/** A database and its -wal by their stamps, links not followed (every write grows the -wal): only when to read again (R2). */
export function databaseStamp(path: string): string {
  return ['', '-wal'].map((suffix) => fileStamp(`${path}${suffix}`, 'own') ?? '-').join('|');
}

export class ReadOnlyDatabase {
  private connection: Connection | null = null;
  private copy: string | null = null;
  /** The file the connection has open: a database replaced under the same name is opened anew. */
  private ino: number | null = null;

  /** `probe` is a statement that fails when the file cannot really be read (a table it must have). */
  constructor(
    readonly path: string,
    private readonly probe: string,
  ) {}

  /**
   * The connection for one read. A private copy is a picture of one moment: each read takes a
   * fresh one. A database replaced under its name (a restore, a reinstall) is another file: the
   * old connection would read the old one.
   */
  connect(): Connection {
    const ino = statSync(this.path).ino;
    if (this.copy !== null || (this.ino !== null && this.ino !== ino)) this.close();
    this.ino = ino;
    return this.open();
  }

  private open(): Connection {
    if (this.connection !== null) return this.connection;
    const { DatabaseSync } = loadSqlite();
    try {
      this.connection = new DatabaseSync(this.path, { readOnly: true, timeout: 500 }) as unknown as Connection;
      this.connection.prepare(this.probe).all();
    } catch (error) {
      this.connection?.close();
      this.connection = null;
      // No -shm to share and no right to make one (a read-only folder): read a private copy.
      if (!/unable to open/i.test(error instanceof Error ? error.message : String(error))) throw error;
      this.connection = new DatabaseSync(this.privateCopy(), { readOnly: true, timeout: 500 }) as unknown as Connection;
    }
    return this.connection;
  }

  private privateCopy(): string {
    this.discardCopy();
    const folder = mkdtempSync(join(tmpdir(), 'lookout-sqlite-'));
    const target = join(folder, basename(this.path));
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${this.path}${suffix}`)) copyFileSync(`${this.path}${suffix}`, `${target}${suffix}`);
    this.copy = folder;
    return target;
  }

  private discardCopy(): void {
    if (this.copy !== null) rmSync(this.copy, { recursive: true, force: true });
    this.copy = null;
  }

  close(): void {
    this.connection?.close();
    this.connection = null;
    this.ino = null;
    this.discardCopy();
  }
}
