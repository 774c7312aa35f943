// Finds Codex rollouts: sessions/YYYY/MM/DD/rollout-*.jsonl and their .jsonl.zst form (§11).
import { join, sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface CodexFiles {
  rollouts: string[];
  compressed: string[];
}

const MAX_DEPTH = 4;

export function discoverCodex(root: string, problems: Problems): CodexFiles {
  const files: CodexFiles = { rollouts: [], compressed: [] };
  const walk = (folder: string, depth: number): void => {
    for (const entry of listFolder(folder, problems)) {
      // The folder is already normalised: a plain join of one name is all that is needed.
      const path = `${folder}${sep}${entry.name}`;
      // Links are not followed (a Dirent of a symlink is neither file nor directory): no loops.
      if (entry.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (entry.isFile() && entry.name.startsWith('rollout-')) {
        if (entry.name.endsWith('.jsonl')) files.rollouts.push(path);
        else if (entry.name.endsWith('.jsonl.zst')) files.compressed.push(path);
      }
    }
  };
  walk(join(root, 'sessions'), 0);
  return files;
}
