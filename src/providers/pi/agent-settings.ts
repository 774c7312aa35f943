// What Pi's own settings say that bears on reading its files: its retry rule (an error turn is
// retried, so only the last attempt fails the turn) and whether any extension is loaded (Pi never
// asks before a tool call itself; an extension may, so a pending call then may be waiting).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { arr, num, obj } from '../jsonl/parse-record';
import { listFolder } from '../list-folder';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import { READ_CAPS } from '../system/safe-read';
import { WholeFiles } from '../system/whole-file';
import type { RetrySettings } from './retries';
import { DEFAULT_RETRY } from './retries';

/** An extension file of Lookout's own, which never asks the person anything. */
export const LOOKOUT_EXTENSION = 'lookout.js';

export interface PiSetup {
  retry: RetrySettings;
  /** Extensions or packages named in settings.json, which may load extensions that ask. */
  namedExtensions: boolean;
}

const DEFAULT_SETUP: PiSetup = { retry: DEFAULT_RETRY, namedExtensions: false };

/** The fields of settings.json that matter here; anything unreadable keeps Pi's defaults. */
export function piSetup(text: string): PiSetup {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    return DEFAULT_SETUP;
  }
  const settings = obj(parsed);
  const retry = obj(settings?.retry);
  const maxRetries = num(retry?.maxRetries);
  return {
    retry: { enabled: retry?.enabled !== false, maxRetries: maxRetries !== null && maxRetries >= 0 ? maxRetries : DEFAULT_RETRY.maxRetries },
    namedExtensions: arr(settings?.extensions).length > 0 || arr(settings?.packages).length > 0,
  };
}

export class AgentSettings {
  private readonly files = new WholeFiles<PiSetup>({
    cap: READ_CAPS.smallJson,
    parse: (text) => ({ value: piSetup(text) }),
    unreadable: (error, path) => {
      this.problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      return { value: DEFAULT_SETUP };
    },
  });

  constructor(
    private readonly root: string,
    private readonly problems: Problems,
  ) {}

  /** settings.json as it is now; not there: Pi's defaults. */
  read(): PiSetup {
    const found = this.files.read(join(this.root, 'settings.json'));
    return found.kind === 'read' ? found.value : DEFAULT_SETUP;
  }

  /**
   * For one sync: whether an extension may ask before a call in a folder — the agent's own
   * extensions or packages, else the project's `.pi` — each folder looked at once, and only when asked.
   */
  asker(setup: PiSetup): (cwd: string | null) => boolean {
    let agent: boolean | undefined;
    const projects = new Map<string, boolean>();
    return (cwd) => {
      agent ??= setup.namedExtensions || listFolder(join(this.root, 'extensions'), this.problems).some((entry) => entry.name !== LOOKOUT_EXTENSION);
      if (agent || cwd === null) return agent;
      let project = projects.get(cwd);
      if (project === undefined) {
        project = existsSync(join(cwd, '.pi', 'extensions')) || existsSync(join(cwd, '.pi', 'settings.json'));
        projects.set(cwd, project);
      }
      return project;
    };
  }
}
