// The answer channel's messages, one JSON object per line, validated on receipt. A hook brings a
// request and waits; a control client (`lookout answer`, a feed, another face) answers or lets go;
// `lookout status` asks for the snapshot the running Lookout shows.
import * as z from 'zod/mini';
import { ANSWER_QUESTIONS_MAX, ANSWER_TEXT_MAX, ANSWER_WORD_MAX } from '../../engine/answer-caps';
import { answerDecisionSchema, commandResultSchema, questionSchema } from '../../engine/contract';

/** A terminal wider than this is no terminal: the table is printed whole instead. */
const STATUS_WIDTH_MAX = 10_000;

const text = (max: number) => z.string().check(z.maxLength(max));
const word = z.string().check(z.minLength(1), z.maxLength(ANSWER_WORD_MAX), z.regex(/^[^\0-\x1f\x7f]*$/));

/** The answer a person gave (the contract's: one schema wherever an answer travels). */
const decisionSchema = answerDecisionSchema;
export type Decision = z.infer<typeof decisionSchema>;

/** Where an answer was given (R75). */
const ANSWER_FROM = ['popover', 'popover-key', 'notification', 'cli', 'host', 'browser', 'phone'] as const;
export type AnswerFrom = (typeof ANSWER_FROM)[number];

/** A hook's request, as the provider read it from the agent's payload. */
const draftSchema = z.object({
  provider: word,
  sessionId: word,
  agentId: z.nullable(word),
  prompt: z.enum(['approval', 'question']),
  tool: text(ANSWER_WORD_MAX),
  text: text(ANSWER_TEXT_MAX),
  /** Characters of the whole text not shown (issue 47): such a prompt is answered only in the terminal. */
  hidden: z.int().check(z.minimum(0)),
  /** The digest of the whole input the agent will run: what an answer is bound to. */
  whole: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  // The contract's question (issue 48: one schema and one set of caps for the channel, the rows and the plugin).
  questions: z.array(questionSchema).check(z.maxLength(ANSWER_QUESTIONS_MAX)),
  /** The agent's own request id, where it has one (a plugin's request). */
  agentRequest: z.nullable(text(ANSWER_WORD_MAX)),
});
export type RequestDraft = z.infer<typeof draftSchema>;

const token = z.string().check(z.length(64), z.regex(/^[0-9a-f]+$/));
const requestId = z.string().check(z.regex(/^req_[0-9a-f]{24}$/));

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('request'),
    token,
    pid: z.int(),
    draft: draftSchema,
    serial: z.boolean(),
    /** How long the hook waits before it leaves the decision to the agent (ms). */
    wait: z.int().check(z.minimum(1000), z.maximum(3_600_000)),
  }),
  // The hook's agent says its prompt was answered elsewhere (a plugin saw the reply event). Without
  // `request`: the one this connection opened (answered before Lookout's "pending" reached it).
  z.object({ type: z.literal('resolved'), token, request: z.optional(requestId) }),
  z.object({
    type: z.literal('answer'),
    token,
    pid: z.int(),
    request: requestId,
    digest: z.string().check(z.length(64)),
    decision: decisionSchema,
    from: z.enum(ANSWER_FROM),
    /** A key press (R72's grace applies) or a pointer click on the card that showed it. */
    via: z.enum(['key', 'click', 'command']),
    /** The phone channel a tap came through (R95), for the audit; absent elsewhere. */
    channel: z.optional(text(ANSWER_WORD_MAX)),
  }),
  // "Answer in terminal": the hook lets go at once, with no decision.
  z.object({ type: z.literal('release'), token, pid: z.int(), request: requestId, from: z.enum(ANSWER_FROM) }),
  // `lookout status` asking the running Lookout for the rows it shows (issue 51): one reply line,
  // `{type: "snapshot", snapshot}`; historical rows only with `all` (a year of history stays home).
  z.object({ type: z.literal('snapshot'), token, pid: z.int(), all: z.boolean() }),
  // `lookout status` asking the running Lookout to print for it (issue 51): the reply is a line
  // `{type: "status", bytes}`, then that many bytes, what the command prints (status-output.ts).
  z.object({
    type: z.literal('status'),
    token,
    pid: z.int(),
    all: z.boolean(),
    json: z.boolean(),
    width: z.nullable(z.int().check(z.minimum(1), z.maximum(STATUS_WIDTH_MAX))),
    color: z.boolean(),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pending'), request: requestId }),
  z.object({ type: z.literal('decision'), decision: decisionSchema }),
  z.object({ type: z.literal('release') }),
  z.extend(commandResultSchema, { type: z.literal('result') }),
]);
type ServerMessage = z.infer<typeof serverMessageSchema>;
/** An answer's or a let-go's result as the channel sends it. */
export type ResultMessage = Extract<ServerMessage, { type: 'result' }>;
