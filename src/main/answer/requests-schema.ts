// The shape of the requests file (requests-file.ts), loaded only when there is one to read.
import * as z from 'zod/mini';
import { questionSchema } from '../../engine/contract';

const closedSchema = z.nullable(
  z.object({ at: z.number(), how: z.enum(['answered', 'elsewhere', 'released', 'expired']), answer: z.nullable(z.string()), from: z.nullable(z.string()) }),
);

export const requestsFileSchema = z.object({
  owner: z.int(),
  requests: z.array(
    z.object({
      provider: z.string(),
      sessionId: z.string(),
      request: z.object({
        id: z.string(),
        at: z.number(),
        source: z.string(),
        agentId: z.nullable(z.string()),
        prompt: z.enum(['approval', 'question']),
        tool: z.string(),
        text: z.string(),
        hidden: z._default(z.int().check(z.minimum(0)), 0),
        digest: z.string(),
        questions: z.array(questionSchema),
        serial: z.boolean(),
        deadline: z.number(),
        keysFrom: z.optional(z.nullable(z.number())),
        closed: closedSchema,
      }),
    }),
  ),
});
