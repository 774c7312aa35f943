// What a Codex rollout's head gave, as the session index keeps it (issue 14): the first
// session_meta (thread, parent, folder, branch) and the first prompt. Checked when taken back.
import type { HeadCodec } from '../file-index';
import { hasShape, pick } from '../plain-shape';
import { CodexRollout } from './rollout';

const FIELDS = { firstPrompt: 'string?', branch: 'string?', cwd: 'string?', firstAt: 'number?', lastRecordAt: 'number?' } as const;
const META = { id: 'string', cwd: 'string?', branch: 'string?', parentThreadId: 'string?', nickname: 'string?', startedAt: 'number?' } as const;

export const ROLLOUT_HEAD: HeadCodec<CodexRollout> = {
  facts: (head) => ({ ...pick(head, FIELDS), meta: head.meta }),
  restore: (facts) => {
    if (!hasShape(facts, FIELDS)) return null;
    const meta: unknown = (facts as { meta?: unknown }).meta;
    if (meta !== null && !hasShape(meta, META)) return null;
    return Object.assign(new CodexRollout(), pick(facts, FIELDS), { meta: meta === null ? null : pick(meta, META) });
  },
};
