// Copilot's workspace.yaml is read by its head and only the keys Lookout uses reach the YAML
// parser (issue 25 item 4): a megabyte flow list under another key costs nothing. The yaml
// package is wrapped here to count what its parser is handed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { CopilotProvider } from '../../src/providers/copilot/provider';
import { usedWorkspaceFields, workspaceFields } from '../../src/providers/copilot/workspace';

const handed = vi.hoisted(() => ({ sizes: [] as number[] }));
vi.mock('yaml', async (importOriginal) => {
  const actual = await importOriginal<typeof import('yaml')>();
  class CountingParser extends actual.Parser {
    override *parse(source: string, incomplete?: boolean): ReturnType<InstanceType<typeof actual.Parser>['parse']> {
      handed.sizes.push(source.length);
      yield* super.parse(source, incomplete);
    }
  }
  return { ...actual, Parser: CountingParser };
});

const base = mkdtempSync(join(tmpdir(), 'lookout-copilot-head-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T0 = Date.parse('2026-08-05T17:00:00.000Z');

function session(id: string, workspace: string): string {
  const root = join(base, id);
  const folder = join(root, 'session-state', id);
  mkdirSync(folder, { recursive: true });
  const start = {
    type: 'session.start',
    id: 'e1',
    parentId: null,
    timestamp: new Date(T0).toISOString(),
    data: { sessionId: id, version: 1, producer: 'copilot-agent', startTime: new Date(T0).toISOString(), context: { cwd: '/from/events' } },
  };
  writeFileSync(join(folder, 'events.jsonl'), `${JSON.stringify(start)}\n`);
  writeFileSync(join(folder, 'workspace.yaml'), workspace);
  return root;
}

describe('workspace.yaml, bounded', () => {
  it('issue 25 item 4: a 1 MB flow list under a key Lookout does not use never reaches the YAML parser', async () => {
    const list = `tags: [${Array.from({ length: 250_000 }, (_, index) => `t${index % 10}`).join(', ')}]`;
    expect(list.length).toBeGreaterThan(990_000);
    // The quoted summary sends the file down the parser's path; the list sits between the keys.
    const root = session('s-list', `id: s-list\nsummary: "Fix: the build"\n${list}\ncwd: /home/me/app\nbranch: main\n`);
    handed.sizes.length = 0;
    const evidence = await new CopilotProvider(root).sync(T0 + 1000);
    expect(evidence[0]?.title).toBe('Fix: the build');
    expect(handed.sizes.length).toBeGreaterThan(0);
    // Only the head of the file is read, and of it only the summary, cwd and branch entries.
    expect(Math.max(...handed.sizes)).toBeLessThanOrEqual(64 * 1024);
  });

  it('issue 25 item 4: the keys Lookout uses read the same whether or not the other entries are there', () => {
    let seed = 11;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const pieces = [
      'Fix',
      ' ',
      'the',
      ': ',
      ':',
      ' #',
      '#',
      '"',
      "'",
      '-',
      '|',
      '>',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&',
      '*',
      '!',
      '\\',
      '\t',
      'é',
      'null',
      '~',
      '?',
    ];
    const value = (): string => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(pieces)).join('');
    const others = [
      (): string => `tags: [${value()}, b]`,
      (): string => `notes: |\n  ${value()}\n  two`,
      (): string => `list:\n  - ${value()}\n  - b`,
      (): string => `# ${value()}`,
      (): string => `count: ${value()}`,
      (): string => `map:\n  summary: ${value()}`,
    ];
    let compared = 0;
    for (let round = 0; round < 5000; round += 1) {
      const lines: string[] = [];
      for (const key of ['summary', 'cwd', 'branch']) {
        if (random() < 0.5) lines.push(pick(others)());
        lines.push(`${key}: ${value()}`);
        if (random() < 0.2) lines.push(`  ${value()}`);
      }
      const text = `${lines.join('\n')}\n`;
      const document = parseDocument(text);
      if (document.errors.length > 0) continue;
      const whole = workspaceFields(text);
      const used = usedWorkspaceFields(text);
      for (const key of ['summary', 'cwd', 'branch']) {
        compared += whole[key] === undefined ? 0 : 1;
        expect(used[key], JSON.stringify(text)).toBe(whole[key]);
      }
    }
    expect(compared).toBeGreaterThan(250);
  });
});
