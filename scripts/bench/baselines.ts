// The baselines the status read is compared with, run as their own processes.
import { closeSync, openSync, readSync, readFileSync, readdirSync, fstatSync } from 'node:fs';

/** Reads the last 64 KB of every file: the least any status reader must do. */
export function readTails(files: readonly string[]): number {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let total = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    total += readSync(fd, buffer, 0, buffer.length, Math.max(0, size - buffer.length));
    closeSync(fd);
  }
  return total;
}

/** Reads every file whole, in 1 MB chunks (for scale). */
export function readWhole(files: readonly string[]): number {
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let total = 0;
  for (const file of files) {
    const fd = openSync(file, 'r');
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      total += read;
    }
    closeSync(fd);
  }
  return total;
}

/**
 * A database's counterpart of a file's last 64 KB: each session's newest message, in one query
 * (loading the same native module status loads). Without it the floor would leave a source unread.
 */
export function readDatabaseTails(path: string): number {
  const { DatabaseSync } = require('@photostructure/sqlite') as typeof import('@photostructure/sqlite');
  const db = new DatabaseSync(path, { readOnly: true });
  // opencode's schema (and Kilo's): each session's newest message; Cline's session table: each row's status.
  const cline = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions'").all().length > 0;
  const query = cline
    ? 'SELECT session_id || status || updated_at AS data FROM sessions'
    : 'SELECT m.data FROM session s JOIN message m ON m.id = (SELECT id FROM message WHERE session_id = s.id ORDER BY time_created DESC, id DESC LIMIT 1)';
  const rows = db.prepare(query).all();
  db.close();
  return rows.reduce((total, row) => total + String(row.data).length, 0);
}

export function runBaseline(mode: string, listFile: string): void {
  const all = readFileSync(listFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  // Folders (named with a trailing "/") are listed — a session folder whose lock files tell
  // liveness —, databases queried, files read.
  const folders = all.filter((path) => path.endsWith('/'));
  const files = all.filter((path) => !path.endsWith('.db') && !path.endsWith('/'));
  const databases = mode === 'tail' ? all.filter((path) => path.endsWith('.db')) : [];
  let bytes = mode === 'tail' ? readTails(files) : readWhole(files);
  for (const path of databases) bytes += readDatabaseTails(path);
  if (mode === 'tail') for (const folder of folders) bytes += readdirSync(folder, { withFileTypes: true }).length;
  process.stdout.write(`${bytes}\n`);
}
