// `lookout doctor`'s screen: one section per thing Lookout depends on, a hint under what is
// missing, and the problems last (what a bug report needs first is at the end of the scroll).
import { phoneLines } from './phone';
import { PROVIDERS } from '../../providers';
import { rootVariables } from '../../providers/roots';
import { notificationHint } from './problems';
import type { AgentReport, DoctorReport, HostReport, NotificationsReport, StateReport, StoredFile, TrayReport } from './report';

/** Lines given under one heading this many at most; the rest is counted. */
const MAX_READING_LINES = 10;
const INDENT = '  ';

/** A path under the user's home as ~/…, as people write it. */
function tilde(path: string, home: string | undefined): string {
  if (home === undefined || home === '' || home === '/') return path;
  return path === home ? '~' : path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function agentLines(agent: AgentReport, home: string | undefined, width: number): string[] {
  const lead = `${INDENT}${agent.id.padEnd(width)}  `;
  const under = ' '.repeat(lead.length);
  const where = `${tilde(agent.folder, home)} (${agent.from})`;
  if (!agent.found) {
    const root = PROVIDERS.find((provider) => provider.id === agent.id)?.root;
    const variable = root === undefined ? '' : rootVariables(root).join(' or ');
    // A folder chosen on purpose that is missing is listed under problems, with what to do.
    const chosen = agent.source === 'variable' || agent.source === 'settings';
    return [`${lead}not found: ${where}`, ...(chosen ? [] : [`${under}set ${variable} if ${agent.name} keeps its files elsewhere`])];
  }
  const sessions = agent.sessions === 1 ? '1 session' : `${agent.sessions ?? 0} sessions`;
  const hooks = agent.hooks === null ? 'no hooks offered' : `hooks ${agent.hooks.state}`;
  const hint =
    agent.hooks?.state === 'not installed' ? [`${under}optional: lookout hooks install --provider ${agent.id} adds direct evidence (docs/hooks.md)`] : [];
  const moved = agent.parts
    .filter((part) => part.variable !== null)
    .map((part) => `${under}its ${part.folder}: ${tilde(part.path, home)} (${part.variable ?? ''})`);
  return [`${lead}found, ${sessions}; ${hooks}`, `${under}${where}`, ...moved, ...hint];
}

function readingLines(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, MAX_READING_LINES).map((line) => `${INDENT}${line}`);
  const more = lines.length - shown.length;
  return ['', "reading the agents' files", ...shown, ...(more > 0 ? [`${INDENT}… ${more} more`] : [])];
}

function trayLines(tray: TrayReport, home: string | undefined): string[] {
  const electron = `${INDENT}Electron: ${tray.electron === null ? 'not installed' : tilde(tray.electron, home)}; display: ${tray.display ?? 'none'}`;
  if (tray.available) return ['', 'tray', `${INDENT}available (npm start runs it)`, electron];
  return ['', 'tray', `${INDENT}not available (${tray.why ?? 'unknown'}); use \`lookout watch\` or \`lookout serve\``, electron];
}

function notificationLines(notifications: NotificationsReport): string[] {
  const { program } = notifications;
  const present =
    notifications.available === null
      ? `${program}: part of Lookout (node-notifier)`
      : notifications.available
        ? `${program}: present${notifications.actions === true ? ', with actions (Open, Mute, Mark reviewed)' : notifications.actions === false ? ', without actions (libnotify before 0.7.10)' : ''}`
        : `${program}: not found; ${notificationHint(notifications)}`;
  const sent =
    notifications.sent === undefined
      ? `${INDENT}\`lookout doctor --notify\` sends a test notification`
      : notifications.sent
        ? `${INDENT}test notification: sent and shown`
        : `${INDENT}test notification: not shown (${notifications.error ?? 'no reason given'})`;
  return ['', 'notifications', `${INDENT}${present}`, sent];
}

function fileLine(name: string, file: StoredFile): string[] {
  switch (file.state) {
    case 'ok':
      return [`${INDENT}${name}: ok`];
    case 'absent':
      return [`${INDENT}${name}: none yet (defaults)`];
    case 'kept aside':
    case 'warning':
      return [`${INDENT}${name}: ${file.state}`, ...file.lines.map((line) => `${INDENT}${INDENT}${line}`)];
  }
}

function stateLines(state: StateReport, home: string | undefined): string[] {
  const from = state.variable === null ? "this platform's default" : `${state.variable} set`;
  const folder = `${INDENT}LOOKOUT_HOME: ${tilde(state.home, home)} (${from}${state.exists ? '' : '; not made yet'}${state.writable ? '' : '; cannot be written'})`;
  return ['', "Lookout's state", folder, ...fileLine('settings.json', state.settings), ...fileLine('store.json', state.store)];
}

function hostLine(host: HostReport, width: number): string {
  const sessions = host.sessions === 1 ? '1 session' : `${host.sessions ?? 0} sessions`;
  const lookout = host.lookout === null ? '' : `, Lookout ${host.lookout}`;
  const state = host.state === 'connected' ? `connected, ${sessions}${lookout}` : `${host.state}${host.reason === null ? '' : `: ${host.reason}`}`;
  return `${INDENT}${host.name.padEnd(width)}  ${state}  (ssh ${host.destination})`;
}

function hostLines(hosts: readonly HostReport[]): string[] {
  const width = Math.max(0, ...hosts.map((host) => host.name.length));
  return ['', 'hosts', ...(hosts.length === 0 ? [`${INDENT}no hosts (lookout hosts add <ssh destination>)`] : hosts.map((host) => hostLine(host, width)))];
}

/** The report as lines for a terminal (printLines makes each safe). */
export function formatDoctor(report: DoctorReport, home: string | undefined): string[] {
  const width = Math.max(0, ...report.agents.map((agent) => agent.id.length));
  const problems =
    report.problems.length === 0 ? [`${INDENT}none`] : report.problems.flatMap((problem) => [`${INDENT}- ${problem.what}`, `${INDENT}  ${problem.hint}`]);
  return [
    `lookout ${report.lookout.version}, node ${report.node.version}, ${report.platform.os} ${report.platform.arch}`,
    '',
    'agents',
    ...report.agents.flatMap((agent) => agentLines(agent, home, width)),
    ...readingLines(report.reading),
    ...trayLines(report.tray, home),
    ...notificationLines(report.notifications),
    ...stateLines(report.state, home),
    ...hostLines(report.hosts),
    ...phoneLines(report.phone),
    '',
    report.problems.length === 0 ? 'problems' : `problems (${report.problems.length})`,
    ...problems,
  ];
}
