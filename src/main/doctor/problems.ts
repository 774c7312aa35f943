// What `doctor` counts as a problem (exit 1), each with one line saying what to do. An agent
// that is simply not here is no problem (most people run one or two); the tray missing on a
// machine without a display is none either: the command line is for it.
import { phoneProblems } from './phone';
import { PROVIDERS } from '../../providers';
import { hookMark } from './agents';
import type { AgentReport, DoctorReport, HostReport, NotificationsReport, Problem, StateReport } from './report';

/** The variable that chose an agent's folder (the agent reads several, for some). */
const variableOf = (agent: AgentReport): string => agent.variable ?? PROVIDERS.find((provider) => provider.id === agent.id)?.root.env ?? '';

/** A hooks file `hooks status` could not parse: "not installed in <file> (<why>)". */
const UNREADABLE = /^not installed in .+? \((.+)\)$/;
const unreadable = (line: string): string => UNREADABLE.exec(line)?.[1] ?? line;

function agentProblems(agent: AgentReport): Problem[] {
  const problems: Problem[] = [];
  // A folder someone chose on purpose that is not there is a slip, not an agent left unused.
  if (!agent.found && agent.source === 'variable')
    problems.push({
      what: `${agent.id}: ${agent.from}, but ${agent.folder} does not exist`,
      hint: `fix or unset ${variableOf(agent)} (${agent.name} reads it too)`,
    });
  if (!agent.found && agent.source === 'settings')
    problems.push({ what: `${agent.id}: ${agent.from} is ${agent.folder}, which does not exist`, hint: `fix or remove roots.${agent.id} in settings.json` });
  const hooks = agent.hooks;
  if (hooks === null) return problems;
  switch (hooks.state) {
    case 'installed':
    case 'not installed':
      break;
    case 'unknown':
      problems.push({
        what: `${agent.id}: its hooks cannot be read: ${hooks.lines
          .filter((line) => hookMark(line) === 'unknown')
          .map(unreadable)
          .join('; ')}`,
        hint: `fix that file; until then hooks install and uninstall change nothing in it (lookout hooks status --provider ${agent.id})`,
      });
      break;
    case 'out of date':
      problems.push({ what: `${agent.id}: its hooks are out of date`, hint: `lookout hooks install --provider ${agent.id} updates them` });
      break;
    case 'partly installed':
      problems.push({
        what: `${agent.id}: its hooks are partly installed (${hooks.lines.join('; ')})`,
        hint: `lookout hooks install --provider ${agent.id} completes them (uninstall takes them out)`,
      });
      break;
  }
  return problems;
}

function noAgent(agents: readonly AgentReport[]): Problem[] {
  if (agents.some((agent) => agent.found)) return [];
  const variables = PROVIDERS.map((provider) => provider.root.env);
  return [
    {
      what: "no agent's folder was found: Lookout has no session to show",
      hint: `run an agent once, or set the variable of the one you use to where it keeps its files (${variables.join(', ')})`,
    },
  ];
}

function stateProblems(state: StateReport): Problem[] {
  const problems: Problem[] = [];
  if (!state.writable)
    problems.push({
      what: `LOOKOUT_HOME ${state.home} cannot be written`,
      hint: 'fix its permissions or set LOOKOUT_HOME to a folder you can write: reviews, mutes and settings cannot be saved meanwhile',
    });
  for (const line of state.settings.lines)
    problems.push({
      what: line,
      hint:
        state.settings.state === 'kept aside'
          ? 'Lookout uses the defaults meanwhile: fix the kept-aside copy and move it back, or set again what you had'
          : 'the rest of settings.json is used as written',
    });
  for (const line of state.store.lines)
    problems.push({
      what: line,
      hint:
        state.store.state === 'kept aside'
          ? 'reviews, mutes and visits start afresh; the old file is kept beside it for a bug report'
          : `check the permissions of ${state.store.path}`,
    });
  return problems;
}

function hostProblems(host: HostReport): Problem[] {
  switch (host.state) {
    case 'connected':
      return [];
    case 'connecting':
    case 'unreachable':
    case 'failed':
      return [
        {
          what: `host ${host.name} (${host.destination}): ${host.state}${host.reason === null ? '' : `: ${host.reason}`}`,
          hint: `\`ssh ${host.destination}\` must log in without a prompt (BatchMode) and find Lookout there (hosts add --command); see docs/hosts.md`,
        },
      ];
  }
}

export function notificationHint(notifications: NotificationsReport): string {
  if (notifications.available === false) return `install ${notifications.program} (Debian and Ubuntu: libnotify-bin; Fedora and Arch: libnotify)`;
  return notifications.program === 'notify-send'
    ? "notify-send needs a notification daemon on the session bus (your desktop's, or dunst, mako…)"
    : 'allow notifications for the terminal in the system settings';
}

function notificationProblems(notifications: NotificationsReport): Problem[] {
  if (notifications.sent !== false) return [];
  return [{ what: `notifications: the test notification was not shown (${notifications.error ?? 'no reason given'})`, hint: notificationHint(notifications) }];
}

export function findProblems(report: Omit<DoctorReport, 'problems'>): Problem[] {
  return [
    ...noAgent(report.agents),
    ...report.agents.flatMap(agentProblems),
    ...stateProblems(report.state),
    ...report.hosts.flatMap(hostProblems),
    ...notificationProblems(report.notifications),
    ...phoneProblems(report.phone),
  ];
}
