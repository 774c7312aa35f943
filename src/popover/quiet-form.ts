// The settings view's quiet hours (issue 16): what the form holds, and the change it sends, checked
// with the contract's own schema so the page says what the runtime would refuse, in one line.
import type { QuietWindow, SettingsView } from '../engine/contract';
import { quietWindowSchema } from '../engine/contract';

export interface QuietDraft {
  on: boolean;
  from: string;
  to: string;
}

/** What a form shows for hours that are off: a night, to start from. */
const OFF_DRAFT = { from: '22:00', to: '07:00' } as const;

export function quietDraft(view: SettingsView['quietHours']): QuietDraft {
  const window = view?.window ?? null;
  return window === null ? { on: false, ...OFF_DRAFT } : { on: true, from: window.from, to: window.to };
}

/** Whether the text is a time of day as the contract takes it ("HH:MM"). */
export function isTimeOfDay(text: string): boolean {
  return quietWindowSchema.shape.from.safeParse(text.trim()).success;
}

/** "Times in Europe/Paris (settings.json)" or "… this machine's time zone (UTC)". */
export function quietZoneLine(view: NonNullable<SettingsView['quietHours']>): string {
  return view.named
    ? `Times in ${view.zone}, the time zone settings.json names.`
    : `Times in this machine's time zone (${view.zone}); settings.json's quietHours.timeZone sets another.`;
}

export type QuietChange = { ok: true; change: QuietWindow | null | undefined } | { ok: false; error: string };

/**
 * The quiet hours to send: undefined when the form says what the settings say (nothing is
 * rewritten), null to turn them off, or a window; an error line when the times are not times.
 */
export function quietChange(draft: QuietDraft, view: SettingsView['quietHours']): QuietChange {
  const window = view?.window ?? null;
  if (!draft.on) return { ok: true, change: window === null ? undefined : null };
  const parsed = quietWindowSchema.safeParse({ from: draft.from.trim(), to: draft.to.trim() });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'quiet hours: not a time of day' };
  const same = window !== null && window.from === parsed.data.from && window.to === parsed.data.to;
  return { ok: true, change: same ? undefined : parsed.data };
}
