// Cline CLI through the built command line: its data folder found by the CLI's own variable
// (CLINE_DATA_DIR), its rows in `status`, its reading in `explain`, its resume command in the docs' form.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/main/doctor/report';
import { findProvider } from '../../src/providers';
import { runCli } from '../main/cli-process';
import { ClineHome, call, user } from './cline-home';

// This test's own process stands for the session's (it started before the session did).
const T = Date.now();
const made = new ClineHome().session({
  id: '1796132159701_el9bw',
  pid: process.pid,
  status: 'pending',
  startedAt: T,
  updatedAt: T + 1_000,
  messages: [user(T + 800, 'make it'), call(T + 900, 'call_1', 'run_commands', { commands: 'touch made.txt' })],
});
made.close();
afterAll(() => rmSync(join(made.root, '..'), { recursive: true, force: true }));

const env = { HOME: join(made.root, '..', 'home'), LOOKOUT_HOME: join(made.root, '..', 'lookout'), CLINE_DATA_DIR: made.root };

describe('Cline CLI through the command line', () => {
  it('status reads the data folder CLINE_DATA_DIR names: the pending approval, direct, answered in the terminal', () => {
    const result = runCli(['status', '--json', '--all', '--now', new Date(T + 30_000).toISOString()], env);
    expect(result.code, result.stderr).toBe(0);
    const sessions = (
      JSON.parse(result.stdout) as {
        sessions: { key: string; observed: { state: string; confidence: string; detail: string | null }; answer: { state: string } | null }[];
      }
    ).sessions;
    expect(sessions.map((row) => row.key)).toEqual(['cline:1796132159701_el9bw']);
    expect([sessions[0]?.observed.state, sessions[0]?.observed.confidence, sessions[0]?.observed.detail]).toEqual([
      'awaiting-approval',
      'direct',
      'run_commands: touch made.txt',
    ]);
    expect(sessions[0]?.answer?.state ?? null).not.toBe('open');
  });

  it('without CLINE_DATA_DIR the default folder (~/.cline/data) is read, here empty', () => {
    const result = runCli(['status', '--json', '--all', '--now', new Date(T + 30_000).toISOString()], { HOME: env.HOME, LOOKOUT_HOME: env.LOOKOUT_HOME });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { sessions: unknown[] }).sessions).toEqual([]);
  });

  it('CLINE_DIR alone (the CLI then uses $CLINE_DIR/data) is followed, and doctor says CLINE_DIR chose the folder', () => {
    const moved = { HOME: env.HOME, LOOKOUT_HOME: env.LOOKOUT_HOME, CLINE_DIR: join(made.root, '..') };
    const result = runCli(['status', '--json', '--all', '--now', new Date(T + 30_000).toISOString()], moved);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { sessions: { key: string }[] }).sessions.map((row) => row.key)).toEqual(['cline:1796132159701_el9bw']);
    const doctor = runCli(['doctor', '--json'], moved);
    const cline = (JSON.parse(doctor.stdout) as DoctorReport).agents.find((agent) => agent.id === 'cline');
    expect(cline).toMatchObject({
      folder: made.root,
      variable: 'CLINE_DIR',
      source: 'variable',
      from: `CLINE_DIR=${moved.CLINE_DIR} (its data); CLINE_DATA_DIR not set`,
      found: true,
      sessions: 1,
    });
    expect(cline?.parts).toEqual([
      { folder: 'db', path: join(made.root, 'db'), variable: null },
      { folder: 'sessions', path: join(made.root, 'sessions'), variable: null },
    ]);
  });

  it('CLINE_DB_DATA_DIR and CLINE_SESSION_DATA_DIR move the session table and the messages out of the data folder; both are followed and named by doctor', () => {
    const split = new ClineHome().session({
      id: '1796132159702_moved',
      pid: process.pid,
      status: 'pending',
      startedAt: T,
      updatedAt: T + 1_000,
      messagesPath: null,
      messages: [user(T + 800, 'make it'), call(T + 900, 'call_1', 'run_commands', { commands: 'touch moved.txt' })],
    });
    split.close();
    const elsewhere = join(split.root, '..', 'elsewhere');
    mkdirSync(elsewhere);
    renameSync(join(split.root, 'db'), join(elsewhere, 'db'));
    renameSync(join(split.root, 'sessions'), join(elsewhere, 'chats'));
    const moved = {
      HOME: env.HOME,
      LOOKOUT_HOME: env.LOOKOUT_HOME,
      CLINE_DATA_DIR: split.root,
      CLINE_DB_DATA_DIR: join(elsewhere, 'db'),
      CLINE_SESSION_DATA_DIR: join(elsewhere, 'chats'),
    };
    try {
      const result = runCli(['status', '--json', '--all', '--now', new Date(T + 30_000).toISOString()], moved);
      expect(result.code, result.stderr).toBe(0);
      const rows = (JSON.parse(result.stdout) as { sessions: { key: string; observed: { detail: string | null } }[] }).sessions;
      expect(rows.map((row) => [row.key, row.observed.detail])).toEqual([['cline:1796132159702_moved', 'run_commands: touch moved.txt']]);
      const cline = (JSON.parse(runCli(['doctor', '--json'], moved).stdout) as DoctorReport).agents.find((agent) => agent.id === 'cline');
      expect(cline?.parts).toEqual([
        { folder: 'db', path: moved.CLINE_DB_DATA_DIR, variable: 'CLINE_DB_DATA_DIR' },
        { folder: 'sessions', path: moved.CLINE_SESSION_DATA_DIR, variable: 'CLINE_SESSION_DATA_DIR' },
      ]);
      expect(runCli(['doctor'], moved).stdout).toContain(`its db: ${moved.CLINE_DB_DATA_DIR} (CLINE_DB_DATA_DIR)`);
    } finally {
      rmSync(join(split.root, '..'), { recursive: true, force: true });
    }
  });

  it('explain names the sources the row was read from', () => {
    const result = runCli(['explain', 'cline:1796132159701_el9bw', '--now', new Date(T + 30_000).toISOString()], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('cline.sessions-db');
  });

  it('the descriptor: resumed with `cline --id <id>` (what the CLI prints on exit), no hooks, answered in the terminal', () => {
    const cline = findProvider('cline');
    expect(cline?.resume('1796132159701_el9bw')).toEqual(['cline', '--id', '1796132159701_el9bw']);
    expect(cline?.hooks).toBeNull();
    expect(cline?.answer.hook).toBeNull();
    expect(cline?.answer.hint).toContain('answer in the terminal');
  });
});
