// Finds Codex rollouts: sessions/YYYY/MM/DD/rollout-*.jsonl and their .jsonl.zst form (§11).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problems } from '../problems';
import { errorCode } from '../problems';

export interface CodexFiles {
  rollouts: string[];
  compressed: string[];
}

const MAX_DEPTH = 4;

export async function discoverCodex(root: string, problems: Problems): Promise<CodexFiles> {
  const files: CodexFiles = { rollouts: [], compressed: [] };
  const walk = async (folder: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.add({ kind: 'unreadable', path: folder, detail: String(code) });
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      // Links are not followed (a Dirent of a symlink is neither file nor directory): no loops.
      if (entry.isDirectory() && depth < MAX_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.startsWith('rollout-')) {
        if (entry.name.endsWith('.jsonl')) files.rollouts.push(path);
        else if (entry.name.endsWith('.jsonl.zst')) files.compressed.push(path);
      }
    }
  };
  await walk(join(root, 'sessions'), 0);
  return files;
}
