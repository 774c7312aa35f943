// Finds Claude Code's session files: leads, current and older subagent layouts (§11).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problems } from '../problems';
import { errorCode } from '../problems';

export interface ClaudeFiles {
  /** projects/<dir>/<session>.jsonl */
  leads: string[];
  /** projects/<dir>/<session>/subagents/agent-*.jsonl, keyed by the parent's file stem. */
  subagents: { path: string; parentStem: string }[];
  /** projects/<dir>/agent-*.jsonl (2.0.x): the parent is named inside the records. */
  looseAgents: string[];
}

async function list(folder: string, problems: Problems): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.add({ kind: 'unreadable', path: folder, detail: String(code) });
    return [];
  }
}

/** Set-aside transcripts (orphaned, superseded) are not sessions. */
function isSessionFile(name: string): boolean {
  return name.endsWith('.jsonl') && !name.includes('.orphaned-') && !name.startsWith('agent-');
}

export async function discoverClaude(root: string, problems: Problems): Promise<ClaudeFiles> {
  const files: ClaudeFiles = { leads: [], subagents: [], looseAgents: [] };
  const projects = join(root, 'projects');
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const project of await list(projects, problems)) {
    if (!project.isDirectory()) continue;
    const folder = join(projects, project.name);
    for (const entry of await list(folder, problems)) {
      if (entry.isFile() && entry.name.startsWith('agent-') && entry.name.endsWith('.jsonl')) files.looseAgents.push(join(folder, entry.name));
      else if (entry.isFile() && isSessionFile(entry.name)) files.leads.push(join(folder, entry.name));
      else if (entry.isDirectory()) {
        const subagents = join(folder, entry.name, 'subagents');
        for (const child of await list(subagents, problems)) {
          if (child.isFile() && child.name.startsWith('agent-') && child.name.endsWith('.jsonl')) {
            files.subagents.push({ path: join(subagents, child.name), parentStem: entry.name });
          }
        }
      }
    }
  }
  return files;
}
