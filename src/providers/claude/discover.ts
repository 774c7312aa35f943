// Finds Claude Code's session files: leads, current and older subagent layouts (§11).
import { join, sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface ClaudeFiles {
  /** projects/<dir>/<session>.jsonl */
  leads: string[];
  /** projects/<dir>/<session>/subagents/agent-*.jsonl, keyed by the parent's file stem. */
  subagents: { path: string; parentStem: string }[];
  /** projects/<dir>/agent-*.jsonl (2.0.x): the parent is named inside the records. */
  looseAgents: string[];
}

/** Set-aside transcripts (orphaned, superseded) are not sessions. */
function isSessionFile(name: string): boolean {
  return name.endsWith('.jsonl') && !name.includes('.orphaned-') && !name.startsWith('agent-');
}

export function discoverClaude(root: string, problems: Problems): ClaudeFiles {
  const files: ClaudeFiles = { leads: [], subagents: [], looseAgents: [] };
  const projects = join(root, 'projects');
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const project of listFolder(projects, problems)) {
    if (!project.isDirectory()) continue;
    const folder = `${projects}${sep}${project.name}`;
    for (const entry of listFolder(folder, problems)) {
      if (entry.isFile() && entry.name.startsWith('agent-') && entry.name.endsWith('.jsonl')) files.looseAgents.push(`${folder}${sep}${entry.name}`);
      else if (entry.isFile() && isSessionFile(entry.name)) files.leads.push(`${folder}${sep}${entry.name}`);
      else if (entry.isDirectory()) {
        const subagents = `${folder}${sep}${entry.name}${sep}subagents`;
        for (const child of listFolder(subagents, problems)) {
          if (child.isFile() && child.name.startsWith('agent-') && child.name.endsWith('.jsonl')) {
            files.subagents.push({ path: `${subagents}${sep}${child.name}`, parentStem: entry.name });
          }
        }
      }
    }
  }
  return files;
}
