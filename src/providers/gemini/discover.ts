// Finds Gemini CLI's chats: tmp/<project>/chats/session-<time>-<id8>.jsonl for each session, and
// tmp/<project>/chats/<parent session id>/<session id>.jsonl for the subagents it started. The
// project folder is named from projects.json (a short name; a sha256 of the path before 0.3x)
// and holds .project_root, the folder the CLI was started in.
import { join, sep } from 'node:path';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import { READ_CAPS, readRegularText } from '../system/safe-read';
import { obj, str } from '../jsonl/parse-record';

export interface GeminiChatFile {
  path: string;
  /** The project folder it lies in (tmp/<project>). */
  project: string;
  /** For a subagent's chat: its folder's name, the parent session's id. */
  parent: string | null;
}

const SESSION_FILE = /^session-.+\.jsonl$/;

export function discoverGemini(root: string, problems: Problems): GeminiChatFile[] {
  const tmp = join(root, 'tmp');
  const found: GeminiChatFile[] = [];
  // Symlinked folders are not followed (Dirent.isDirectory is false for links): no loops.
  for (const project of listFolder(tmp, problems)) {
    if (!project.isDirectory()) continue;
    const projectPath = `${tmp}${sep}${project.name}`;
    const chats = `${projectPath}${sep}chats`;
    for (const entry of listFolder(chats, problems)) {
      const path = `${chats}${sep}${entry.name}`;
      // Older versions' whole-file .json chats become .jsonl when resumed: only .jsonl is read.
      if (entry.isFile() && SESSION_FILE.test(entry.name)) found.push({ path, project: projectPath, parent: null });
      else if (entry.isDirectory()) {
        for (const child of listFolder(path, problems)) {
          if (child.isFile() && child.name.endsWith('.jsonl')) found.push({ path: `${path}${sep}${child.name}`, project: projectPath, parent: entry.name });
        }
      }
    }
  }
  return found;
}

/** The folder each project folder stands for: its .project_root, else projects.json's name for it. */
export class ProjectRoots {
  private readonly known = new Map<string, string | null>();
  private registry: Map<string, string> | null = null;

  constructor(
    private readonly root: string,
    private readonly problems: Problems,
  ) {}

  /** Read once per project folder: the CLI writes it when it first claims the name. */
  folderOf(project: string): string | null {
    if (this.known.has(project)) return this.known.get(project) ?? null;
    const folder = this.marker(project) ?? this.fromRegistry(project);
    // Not cached while unknown: the marker may be written a moment after the chat.
    if (folder !== null) this.known.set(project, folder);
    return folder;
  }

  private marker(project: string): string | null {
    try {
      const text = readRegularText(join(project, '.project_root'), READ_CAPS.smallJson).trim();
      return text === '' ? null : text;
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT') this.problems.add({ kind: 'unreadable', path: join(project, '.project_root'), detail: code ?? String(error) });
      return null;
    }
  }

  /** projects.json: {"projects": {"/abs/folder": "short-name"}}. */
  private fromRegistry(project: string): string | null {
    if (this.registry === null) {
      this.registry = new Map();
      try {
        const parsed: unknown = JSON.parse(readRegularText(join(this.root, 'projects.json'), READ_CAPS.config));
        for (const [folder, name] of Object.entries(obj(obj(parsed)?.projects) ?? {})) {
          const short = str(name);
          if (short !== null) this.registry.set(short, folder);
        }
      } catch {
        // Missing or not JSON: the folders stay unknown.
      }
    }
    return this.registry.get(project.slice(project.lastIndexOf(sep) + 1)) ?? null;
  }
}
