// R13: every story's neutral evidence reaches its expected row through the one fold.
import { describe, expect, it } from 'vitest';
import { rowOf } from '../engine/build';
import { STORIES } from './stories';

describe('parity stories through the engine', () => {
  it.each(STORIES.map((story) => [story.name, story] as const))('R13 story: %s', (_name, story) => {
    const row = rowOf(story.evidence, story.now);
    expect({
      state: row.observed.state,
      reason: row.observed.reason,
      workflow: row.workflow,
      liveness: row.children.liveness,
      claim: row.claim?.kind ?? null,
    }).toEqual(story.expected);
  });
});
