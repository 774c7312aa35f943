// A Pi session file of three records (its header, a prompt, a finished answer), for tests that run
// the command line over a home of their own.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes session `id` in `folder`, begun `ago` ms before now in `cwd`, its last record 2 s after its start. */
export function writePiSession(folder: string, id: string, cwd: string, ago: number): void {
  const at = (offset: number): string => new Date(Date.now() - ago + offset).toISOString();
  const lines = [
    { type: 'session', version: 3, id, timestamp: at(0), cwd },
    { type: 'message', id: 'e1', parentId: null, timestamp: at(1000), message: { role: 'user', content: [{ type: 'text', text: 'make the badge' }] } },
    {
      type: 'message',
      id: 'e2',
      parentId: 'e1',
      timestamp: at(2000),
      message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stopReason: 'stop' },
    },
  ];
  writeFileSync(join(folder, `2026-12-05T06-00-00-000Z_${id}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}
