// What a session's <uuid>.settings.json says of how it runs: started by `droid exec` (tag "exec":
// nobody is there to approve, so a pending call is running), or a subagent's session (tag
// "subagent" naming the session that called it). Read safely, again only when its stamp changes.
import { arr, obj, str } from '../jsonl/parse-record';
import type { Problems } from '../problems';
import { errorCode } from '../problems';
import { READ_CAPS } from '../system/safe-read';
import { WholeFiles } from '../system/whole-file';

export interface SessionMode {
  /** Run by `droid exec`: it never asks for approval (a call it may not run fails at once). */
  exec: boolean;
  /** The session whose Task tool started this one, for a subagent's session. */
  callingSessionId: string | null;
}

const UNKNOWN: SessionMode = { exec: false, callingSessionId: null };

/** The tags of a settings file's text (Droid's own test: a tag named "exec", a tag named "subagent"). */
export function sessionMode(text: string): SessionMode {
  let settings: unknown = null;
  try {
    settings = JSON.parse(text);
  } catch {
    // Caught mid-write, or not Droid's: nothing known of the session's mode.
  }
  const tags = arr(obj(settings)?.tags).map(obj);
  const subagent = tags.find((tag) => str(tag?.name) === 'subagent');
  return { exec: tags.some((tag) => str(tag?.name) === 'exec'), callingSessionId: str(obj(subagent?.metadata)?.callingSessionId) };
}

export class SessionSettings {
  // An unreadable file is said and kept as unknown until it changes.
  private readonly files = new WholeFiles<SessionMode>({
    cap: READ_CAPS.smallJson,
    parse: (text) => ({ value: sessionMode(text) }),
    unreadable: (error, path) => {
      this.problems.add({ kind: 'unreadable', path, detail: errorCode(error) ?? String(error) });
      return { value: UNKNOWN };
    },
  });

  constructor(private readonly problems: Problems) {}

  /** The session's mode; not there yet (it is written a moment after the transcript), or unreadable: unknown. */
  read(path: string): SessionMode {
    const found = this.files.read(path);
    return found.kind === 'read' ? found.value : UNKNOWN;
  }

  /** Forgets files no longer listed. */
  keep(paths: ReadonlySet<string>): void {
    this.files.keep(paths);
  }
}
