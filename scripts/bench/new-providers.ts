// Issue 12's figures, grown by issue 24: 500 sessions of each other agent (GitHub Copilot CLI,
// Gemini CLI, Qwen Code, Cline CLI, Factory Droid; an opencode database and a Kilo database of 500
// sessions, about 200 MB each) beside the main history; cold status over all nine providers against
// the same tail baseline, and an opencode step written to the database → the snapshot, as `watch` sees it.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { measure, median, pairedRatio, pairedRounds, percentile, writeRssWrapper } from './measure';
import { WatchStates, within } from './watch-states';
import type { History } from './synthetic-history';
import { clineSessions, droidSessions, geminiSessions, qwenSessions } from './more-agents';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The sessions' files, and their folders (listed by any reader: the liveness locks are found so). */
export function copilotSessions(root: string, count: number, now: number): string[] {
  const files: string[] = [];
  const pad = 'x'.repeat(1200);
  for (let index = 0; index < count; index += 1) {
    const id = `c0b1e000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
    const folder = join(root, 'session-state', id);
    mkdirSync(folder, { recursive: true });
    const at = (offset: number) => new Date(now - (index % 600) * 60_000 - 60_000 + offset).toISOString();
    const line = (type: string, offset: number, data: object) => JSON.stringify({ type, data, id: `${id}-${offset}`, timestamp: at(offset), parentId: null });
    const lines = [line('session.start', 0, { sessionId: id, copilotVersion: '1.0.78', context: { cwd: '/home/me/app', branch: 'main' } })];
    for (let turn = 0; turn < 20; turn += 1) {
      const t = turn * 2000;
      lines.push(
        line('user.message', t + 1, { content: `turn ${turn}` }),
        line('assistant.turn_start', t + 2, { turnId: '0' }),
        line('tool.execution_start', t + 3, { toolCallId: `c${turn}`, toolName: 'bash', arguments: { command: 'npm test' } }),
        line('tool.execution_complete', t + 4, { toolCallId: `c${turn}`, success: true, result: { content: pad } }),
        line('assistant.message', t + 5, { content: 'All green.', toolRequests: [] }),
        line('assistant.turn_end', t + 6, { turnId: '0' }),
      );
    }
    const path = join(folder, 'events.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    // Every real session has one (the CLI's summary is its title).
    const workspace = join(folder, 'workspace.yaml');
    writeFileSync(
      workspace,
      `id: ${id}\ncwd: /home/me/app\ngit_root: /home/me/app\nrepository: me/app\nhost_type: github\nbranch: main\nsummary: Bench session ${index}\nsummary_count: 1\ncreated_at: ${at(0)}\nupdated_at: ${at(40_000)}\n`,
    );
    files.push(path, workspace, `${folder}/`);
  }
  return files;
}

const SCHEMA = `PRAGMA journal_mode=WAL;
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);`;

/** One opencode database (1.4.0's indexes): `sessions` sessions of 20 messages and 200 parts each (1.4 KB of text a part, about 200 MB at 500). */
export function opencodeDatabase(root: string, sessions: number, now: number, file = 'opencode.db'): InstanceType<typeof DatabaseSync> {
  mkdirSync(root, { recursive: true });
  const db = new DatabaseSync(join(root, file));
  db.exec(SCHEMA);
  const text = 'y'.repeat(1400);
  const insertSession = db.prepare('INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?)');
  const insertMessage = db.prepare('INSERT INTO message VALUES (?,?,?,?,?)');
  const insertPart = db.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)');
  db.exec('BEGIN');
  for (let s = 0; s < sessions; s += 1) {
    const sid = `ses_bench${String(s).padStart(6, '0')}`;
    const start = now - (s % 600) * 60_000 - 600_000;
    insertSession.run(sid, 'global', null, 'slug', '/home/me/app', `bench session ${s}`, '1.4.0', start, start, null, null);
    for (let m = 0; m < 20; m += 1) {
      const mid = `msg_${sid}_${String(m).padStart(3, '0')}`;
      const at = start + m * 10_000;
      const data =
        m % 2 === 0
          ? { role: 'user', time: { created: at } }
          : { role: 'assistant', time: { created: at, completed: at + 5000 }, finish: m === 19 ? 'stop' : 'tool-calls' };
      insertMessage.run(mid, sid, at, at, JSON.stringify(data));
      for (let p = 0; p < 10; p += 1) insertPart.run(`prt_${mid}_${p}`, mid, sid, at, at, JSON.stringify({ type: 'text', text }));
    }
  }
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return db;
}

export async function newProviders(folder: string, history: History, quick: boolean): Promise<void> {
  const now = Date.now();
  const started = Date.now();
  const count = quick ? 20 : 500;
  const copilotRoot = join(folder, 'copilot');
  const opencodeRoot = join(folder, 'opencode');
  const kiloRoot = join(folder, 'kilo');
  // Gemini CLI's and Droid's variables name a home whose `.gemini` / `.factory` they use.
  const geminiHome = join(folder, 'gemini-home');
  const droidHome = join(folder, 'droid-home');
  const qwenRoot = join(folder, 'qwen');
  const clineRoot = join(folder, 'cline-data');
  const copilotFiles = copilotSessions(copilotRoot, count, now);
  const db = opencodeDatabase(opencodeRoot, count, now);
  opencodeDatabase(kiloRoot, count, now, 'kilo.db').close();
  const others = [
    ...geminiSessions(join(geminiHome, '.gemini'), count, now),
    ...qwenSessions(qwenRoot, count, now),
    ...clineSessions(clineRoot, count, now),
    ...droidSessions(join(droidHome, '.factory'), count, now),
  ];
  const size = statSync(join(opencodeRoot, 'opencode.db')).size;
  console.log(
    `more providers: ${count} sessions each of Copilot, Gemini, Qwen, Cline and Droid, and opencode and Kilo databases of ${count} sessions (${(size / MB).toFixed(0)} MB each), written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const list = join(folder, 'files-all.txt');
  // The floor reads each file's end, lists each Copilot session's folder and queries each database
  // (each opencode and Kilo session's newest message, Cline's session table: baselines.ts).
  const databases = [join(opencodeRoot, 'opencode.db'), join(kiloRoot, 'kilo.db'), join(clineRoot, 'db', 'sessions.db')];
  writeFileSync(list, [...history.files, ...copilotFiles, ...others, ...databases].join('\n'));
  const wrapper = writeRssWrapper(folder);
  const self = resolve(__dirname, 'bench.cjs');
  const cli = resolve(__dirname, 'cli.cjs');
  const env = {
    ...process.env,
    CLAUDE_CONFIG_DIR: history.claudeRoot,
    CODEX_HOME: history.codexRoot,
    COPILOT_HOME: copilotRoot,
    OPENCODE_DATA_DIR: opencodeRoot,
    KILO_DATA_DIR: kiloRoot,
    GEMINI_CLI_HOME: geminiHome,
    QWEN_HOME: qwenRoot,
    CLINE_DATA_DIR: clineRoot,
    FACTORY_HOME_OVERRIDE: droidHome,
    LOOKOUT_HOME: join(folder, 'home-9'),
  };
  const runs = quick ? 1 : 5;
  measure(wrapper, cli, ['status', '--json', '--all'], env);
  measure(wrapper, self, ['--baseline', 'tail', list], env);
  const rounds = pairedRounds(wrapper, cli, self, list, env, runs);
  console.log(
    `cold status over nine providers: ${median(rounds.statusRuns).toFixed(0)} ms for ${rounds.rows} rows (${rounds.statusRuns.map((ms) => ms.toFixed(0)).join(', ')}); tail baseline (with each database's newest rows) ${median(rounds.tailRuns).toFixed(0)} ms; ratio ${pairedRatio(rounds).toFixed(2)}x paired (target ≤ 3x); peak memory ${rounds.peakMb.toFixed(0)} MB`,
  );

  // An opencode step written to the database while `watch` runs → the row in the snapshot.
  const watch = new WatchStates(cli, env);
  while (watch.states.size === 0) await sleep(20);
  await sleep(2000);
  const steps = quick ? 5 : 40;
  const latencies: number[] = [];
  const insert = db.prepare('INSERT INTO message VALUES (?,?,?,?,?)');
  for (let step = 0; step < steps; step += 1) {
    const sid = `ses_bench${String((step * 7) % count).padStart(6, '0')}`;
    const key = `opencode:${sid}`;
    const wanted = watch.states.get(key) === 'running' ? 'idle' : 'running';
    const at = Date.now();
    const data = wanted === 'running' ? { role: 'user', time: { created: at } } : { role: 'assistant', time: { created: at, completed: at }, finish: 'stop' };
    const seen = watch.reaches(key, wanted);
    const t0 = process.hrtime.bigint();
    insert.run(`msg_step_${step}`, sid, at, at, JSON.stringify(data));
    latencies.push(await within(seen, t0, 5000));
    await sleep(150);
  }
  watch.child.kill('SIGINT');
  db.close();
  console.log(
    `opencode step → snapshot latency over ${steps} steps: p50 ${median(latencies).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms (target p50 ≤ 100 ms)`,
  );
}
