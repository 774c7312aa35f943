// doctor's phone section (issue 49): each channel set up, its mode, and its last success or error
// (run/phone-state.json, written by the Lookout that sends). Read only: a bad phone.json is said,
// never moved aside from here.
import { channelLabel, loadPhone } from '../phone/phone-config';
import { failingNow, healthLine, readPhoneState } from '../phone/phone-state';
import type { PhoneReport, Problem } from './report';

export function phoneReport(home: string, now: number): PhoneReport {
  const { file, problem } = loadPhone(home, now, { keepAside: false });
  const state = readPhoneState(home);
  return {
    mode: file?.mode ?? null,
    problem,
    channels: (file?.channels ?? []).map((config) => {
      const health = state[config.id];
      return { id: config.id, label: channelLabel(config), health: healthLine(health), failing: failingNow(health) };
    }),
  };
}

export function phoneProblems(report: PhoneReport): Problem[] {
  return [
    ...(report.problem === null
      ? []
      : [{ what: report.problem.replace(/^lookout: /, ''), hint: 'set the channel up again: lookout phone add …; docs/phone.md' }]),
    ...report.channels
      .filter((channel) => channel.failing)
      .map((channel) => ({
        what: `phone channel ${channel.id} (${channel.label}): ${channel.health}`,
        hint: 'lookout phone test says why now; docs/phone.md',
      })),
  ];
}

export function phoneLines(report: PhoneReport): string[] {
  const INDENT = '  ';
  if (report.channels.length === 0) return ['', 'phone', `${INDENT}no phone channel (lookout phone add ntfy <server/topic> | telegram)`];
  return ['', `phone (mode ${report.mode ?? 'away'})`, ...report.channels.map((channel) => `${INDENT}${channel.id}: ${channel.label}: ${channel.health}`)];
}
