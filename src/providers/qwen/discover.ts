// Finds Qwen Code's sessions: projects/<project>/chats/<session>.jsonl with <session>.runtime.json
// beside it (the process that holds the session), and its subagents' transcripts under
// projects/<project>/subagents/<session>/agent-<id>.jsonl (with agent-<id>.meta.json).
import { sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';

export interface QwenSessionFiles {
  /** The file's stem: the session id Qwen names it by. */
  id: string;
  chat: string;
  /** <session>.runtime.json, when the session's process wrote one (interactive sessions do). */
  runtime: string | null;
}

interface QwenSubagentFiles {
  /** The session the subagent belongs to (its folder's name). */
  parent: string;
  /** The agent id in the file name. */
  id: string;
  chat: string;
  meta: string | null;
}

export interface QwenFiles {
  sessions: QwenSessionFiles[];
  subagents: QwenSubagentFiles[];
}

const CHAT = /^(.+)\.jsonl$/;
const AGENT = /^agent-(.+)\.jsonl$/;

/** `projects` is the agent's projects folder (<QWEN_HOME>/projects, or its runtime folder's). */
export function discoverQwen(projects: string, problems: Problems): QwenFiles {
  const files: QwenFiles = { sessions: [], subagents: [] };
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const project of listFolder(projects, problems)) {
    if (!project.isDirectory()) continue;
    const folder = `${projects}${sep}${project.name}`;
    const chats = `${folder}${sep}chats`;
    const entries = listFolder(chats, problems);
    const names = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
    for (const name of names) {
      const id = CHAT.exec(name)?.[1];
      // The prompt ledger of `qwen serve` sits beside the chat under the same id: not a session.
      if (id === undefined || id.endsWith('.ledger')) continue;
      const runtime = `${id}.runtime.json`;
      files.sessions.push({ id, chat: `${chats}${sep}${name}`, runtime: names.has(runtime) ? `${chats}${sep}${runtime}` : null });
    }
    const subagents = `${folder}${sep}subagents`;
    for (const session of listFolder(subagents, problems)) {
      if (!session.isDirectory()) continue;
      const inside = `${subagents}${sep}${session.name}`;
      const agentFiles = listFolder(inside, problems).filter((entry) => entry.isFile());
      const agentNames = new Set(agentFiles.map((entry) => entry.name));
      for (const entry of agentFiles) {
        const id = AGENT.exec(entry.name)?.[1];
        if (id === undefined) continue;
        const meta = `agent-${id}.meta.json`;
        files.subagents.push({ parent: session.name, id, chat: `${inside}${sep}${entry.name}`, meta: agentNames.has(meta) ? `${inside}${sep}${meta}` : null });
      }
    }
  }
  return files;
}
