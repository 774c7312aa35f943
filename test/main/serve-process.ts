// Starts `lookout serve` as a real process and hands back its URL (its first stdout line).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI } from './cli-process';

export interface Served {
  child: ChildProcessWithoutNullStreams;
  url: URL;
  token: string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

export function serve(env: Record<string, string>, args: string[] = [], cli = CLI): Promise<Served> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no URL; stderr: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      const url = new URL(out.slice(0, newline));
      resolve({
        child,
        url,
        token: url.searchParams.get('token') ?? '',
        stderr: () => stderr,
        stop: () =>
          new Promise((done) => {
            child.once('exit', (code) => done(code));
            child.kill('SIGINT');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}
