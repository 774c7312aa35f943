// Issue 16: quiet hours, time-zone aware, and the tray's pause. Fake clocks only.
import { describe, expect, it } from 'vitest';
import { inQuietHours, isQuiet, nextLocal } from '../../src/engine';

const at = (text: string) => Date.parse(text);

describe('quiet hours (issue 16)', () => {
  const night = { from: '22:00', to: '07:30', timeZone: 'Europe/Paris' };

  it('a window across midnight, in its own time zone: both edges', () => {
    // Paris is UTC+1 in winter: 22:00 there is 21:00 UTC.
    expect(inQuietHours(at('2026-12-01T20:59:59Z'), night)).toBe(false);
    expect(inQuietHours(at('2026-12-01T21:00:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-12-02T03:00:00Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-12-02T06:29:59Z'), night)).toBe(true);
    expect(inQuietHours(at('2026-12-02T06:30:00Z'), night)).toBe(false);
    // In summer (UTC+2) the same window starts an hour earlier in UTC.
    expect(inQuietHours(at('2026-07-01T20:00:00Z'), night)).toBe(true);
  });

  it('a window within a day; from = to is never quiet; none is never quiet', () => {
    const lunch = { from: '12:00', to: '13:00', timeZone: 'UTC' };
    expect(inQuietHours(at('2026-12-01T11:59:00Z'), lunch)).toBe(false);
    expect(inQuietHours(at('2026-12-01T12:00:00Z'), lunch)).toBe(true);
    expect(inQuietHours(at('2026-12-01T13:00:00Z'), lunch)).toBe(false);
    expect(inQuietHours(at('2026-12-01T12:30:00Z'), { from: '12:00', to: '12:00', timeZone: 'UTC' })).toBe(false);
    expect(inQuietHours(at('2026-12-01T12:30:00Z'), null)).toBe(false);
  });

  it('a pause holds until its end, with or without quiet hours', () => {
    const now = at('2026-12-01T12:00:00Z');
    expect(isQuiet(now, null, now + 1)).toBe(true);
    expect(isQuiet(now, null, now)).toBe(false);
    expect(isQuiet(now, null, null)).toBe(false);
  });

  it('"until tomorrow": the next time the local clock reads the hour', () => {
    expect(new Date(nextLocal(at('2026-12-01T21:15:30Z'), '07:30', 'Europe/Paris')).toISOString()).toBe('2026-12-02T06:30:00.000Z');
    expect(new Date(nextLocal(at('2026-12-02T05:00:00Z'), '07:30', 'Europe/Paris')).toISOString()).toBe('2026-12-02T06:30:00.000Z');
    // Exactly at the hour: the next day's.
    expect(new Date(nextLocal(at('2026-12-01T08:00:00Z'), '08:00', 'UTC')).toISOString()).toBe('2026-12-02T08:00:00.000Z');
  });
});
