// `lookout doctor [--json] [--notify] [--now <ISO>]`: what Lookout sees here, on one screen: the
// first thing to run when something looks wrong, and what a bug report pastes. Exit 0 with no
// problem, 1 with any (docs/cli.md, "doctor"), 2 for a bad argument.
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { jsonLine, printLines } from '../text/terminal-text';
import { LOOKOUT_VERSION } from '../text/version';
import { resolveRoots } from '../../providers';
import { agentReports } from '../doctor/agents';
import { notificationProgram, sendTest, trayReport } from '../doctor/desktop';
import { formatDoctor } from '../doctor/format';
import { hostReports } from '../doctor/hosts';
import { ownState } from '../doctor/own-state';
import { findProblems } from '../doctor/problems';
import type { DoctorReport } from '../doctor/report';
import { countSessions } from '../doctor/sessions';
import { phoneReport } from '../doctor/phone';

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean' }, notify: { type: 'boolean' }, now: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const now = resolveNow(values.now);
  const env = process.env;
  const platform = process.platform;
  const own = ownState(env, now);
  // The folders every command reads: the agents' variables, then settings.json, then the defaults.
  const roots = resolveRoots(env, own.settings.roots);
  // The hosts are asked while this machine's files are read: a slow host costs its wait once.
  const [counted, hosts] = await Promise.all([countSessions(roots, own.report.home, own.store, own.facts, now), hostReports(own.settings.hosts, env)]);
  const program = notificationProgram(env, platform);
  const found: Omit<DoctorReport, 'problems'> = {
    lookout: { version: LOOKOUT_VERSION },
    node: { version: process.version },
    platform: { os: platform, arch: process.arch },
    agents: agentReports({ env, chosen: own.settings.roots, home: own.report.home, now, sessions: counted.byAgent }, roots),
    reading: counted.lines,
    tray: trayReport(env, platform),
    // Only --notify shows anything: a check never interrupts the user unasked.
    notifications: values.notify === true ? await sendTest(program, platform) : program,
    state: own.report,
    hosts,
    phone: phoneReport(own.report.home, now),
  };
  const report: DoctorReport = { ...found, problems: findProblems(found) };
  if (values.json === true) process.stdout.write(`${jsonLine(report)}\n`);
  else printLines(process.stdout, formatDoctor(report, env.HOME));
  return report.problems.length === 0 ? 0 : 1;
}
