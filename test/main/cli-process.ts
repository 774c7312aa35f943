// Runs the built command line as a real process.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../dist/cli.cjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>, input?: string, cli = CLI): CliResult {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? '/nonexistent-home', ...env },
    encoding: 'utf8',
    timeout: 60_000,
    input,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
