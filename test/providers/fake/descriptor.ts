// A small fake provider ("parrot") that exists only in tests: it proves a provider plugs in
// through the registry alone. Its files: <root>/sessions/<id>.json, one small JSON object each:
// {"id", "title", "cwd", "state": "asking" | "working" | "done", "at": ISO-8601, "detail"?}.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEvidence, TranscriptSignal } from '../../../src/engine';
import { session } from '../../engine/build';
import type { ProviderDescriptor } from '../../../src/providers/descriptor';
import { Problems } from '../../../src/providers/problems';
import type { EvidenceSource } from '../../../src/providers/source';

export const FAKE_ID = 'parrot';
const SOURCE = `${FAKE_ID}.file`;

interface ParrotFile {
  id: string;
  title: string;
  cwd: string;
  state: 'asking' | 'working' | 'done';
  at: string;
  detail?: string;
}

function signalOf(file: ParrotFile, at: number): TranscriptSignal {
  switch (file.state) {
    case 'asking':
      return {
        kind: 'tool-call',
        at,
        approvalPolicy: null,
        pending: [{ id: 'q1', name: 'Ask', detail: `asks: ${file.detail ?? 'anything?'}`, category: 'question', escalation: false }],
      };
    case 'working':
      return { kind: 'prompt', at };
    case 'done':
      return { kind: 'turn-end', at, failed: false, detail: null };
  }
}

/** Reads every session file on each sync; the same array back when no file's text changed. */
class ParrotSource implements EvidenceSource {
  readonly name = FAKE_ID;
  readonly problems = new Problems();
  private last: { signature: string; evidence: SessionEvidence[] } | null = null;

  constructor(readonly root: string) {}

  async sync(): Promise<SessionEvidence[]> {
    const folder = join(this.root, 'sessions');
    let names: string[] = [];
    try {
      names = readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .sort();
    } catch {
      names = [];
    }
    const texts = names.map((name) => readFileSync(join(folder, name), 'utf8'));
    const signature = texts.join('\n');
    if (this.last !== null && this.last.signature === signature) return this.last.evidence;
    const evidence = texts.map((text): SessionEvidence => {
      const file = JSON.parse(text) as ParrotFile;
      const at = Date.parse(file.at);
      // The engine's test builder, with this provider's own facts laid over its defaults.
      return session({
        id: file.id,
        provider: FAKE_ID,
        title: file.title,
        cwd: file.cwd,
        branch: null,
        transcriptSource: SOURCE,
        lastRecordAt: at,
        signal: signalOf(file, at),
        turn: { startedAt: at, endedAt: file.state === 'done' ? at : null, durationMs: null },
      });
    });
    this.last = { signature, evidence };
    return evidence;
  }
}

export const parrotDescriptor: ProviderDescriptor = {
  id: FAKE_ID,
  name: 'Parrot Agent',
  shortName: 'Parrot',
  root: { env: 'PARROT_HOME', defaultFolder: '.parrot' },
  watch: (root) => [{ path: join(root, 'sessions'), depth: 0, files: /\.json$/ }],
  createSource: (root) => new ParrotSource(root),
  transcriptSource: SOURCE,
  sources: [SOURCE],
  resume: (sessionId) => ['parrot', 'resume', sessionId],
  hooks: null,
  answer: { how: 'not at all', hint: 'answer in the terminal', hook: null, followsHook: false },
};
