// Answering from a popover (§13): which popover may answer (the app's always; `lookout serve`'s
// page only when settings.json allows it), what an answer from it is recorded as, and a refusal
// turned into the command's error.
import type { Settings } from '../../engine';
import type { CommandResult } from '../../engine/contract';
import { answerFromBrowser } from '../store/settings-store';
import type { AnswerFrom } from '../answer/protocol';

/** The page's refusal of an answer while settings.json has not allowed it. */
export const BROWSER_ANSWERS_OFF = 'answering from the browser page is off (settings.json answerFromBrowser)';

export class AnswerGate {
  /** settings.json's `answerFromBrowser`, read again only when the runtime's settings were reloaded. */
  private browserAnswers: { settings: Settings; allowed: boolean } | null = null;

  /** `app`: the app's own window (always answers); else `lookout serve`'s page. */
  constructor(
    /** The running Lookout's settings (a new object when reloaded) and home. */
    private readonly runtime: { readonly settings: Settings; readonly home: string },
    private readonly app: boolean,
  ) {}

  /** Whether this popover may answer prompts, and why not. */
  state(): { allowed: boolean; why: string | null } {
    if (this.app) return { allowed: true, why: null };
    const settings = this.runtime.settings;
    if (this.browserAnswers?.settings !== settings) this.browserAnswers = { settings, allowed: answerFromBrowser(this.runtime.home) };
    return this.browserAnswers.allowed ? { allowed: true, why: null } : { allowed: false, why: BROWSER_ANSWERS_OFF };
  }

  /** Where an answer from this popover was given (R75): a click or a key in the app, or the page. */
  from(via: 'key' | 'click'): AnswerFrom {
    return !this.app ? 'browser' : via === 'key' ? 'popover-key' : 'popover';
  }
}

/** A refused answer or let-go becomes the command's error, in the channel's words. */
export function refusedIfNot(result: CommandResult): void {
  if (!result.ok) throw new Error(result.error ?? 'refused');
}
