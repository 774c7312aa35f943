// Runs the built command line as a real process.
import { spawn, spawnSync } from 'node:child_process';
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

/** `runCli` without blocking this process: for a test that serves the command itself meanwhile (a socket of its own). */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? '/nonexistent-home', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
