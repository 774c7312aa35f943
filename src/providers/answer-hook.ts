// How an agent lets an outside program answer its prompt (docs/answering.md): what Lookout
// reads from the agent's request and what it prints back. The facts per agent are in
// docs/answering.md; the channel that carries them is main's.
import type { AnswerQuestion } from '../engine';
import { ANSWER_TEXT_MAX } from '../engine/answer-caps';
import type { AnswerDecision } from '../engine/contract';
import type { HookEdit, HookPlaces } from './descriptor';
import type { JsonRecord } from './jsonl/parse-record';

/** A prompt as the agent's hook hands it over: who asks, and exactly what. */
export interface AnswerDraft {
  provider: string;
  sessionId: string;
  agentId: string | null;
  prompt: 'approval' | 'question';
  tool: string;
  /** The command, the path and edit, the patch: what is shown (at most SHOWN_MAX characters). */
  text: string;
  /** Characters of the whole text not in `text`: a prompt not shown whole is answered only in the terminal. */
  hidden: number;
  /** A digest of the whole input the agent will run (every field, uncut): the answer is bound to it. */
  whole: string;
  questions: AnswerQuestion[];
  /** The agent's own id for the request, where it has one. */
  agentRequest: string | null;
}

/** A person's answer: the contract's (issue 48: one definition wherever an answer travels). */
export type { AnswerDecision };

export interface AnswerHook {
  /** The hook entry the agent runs for it (the sh shim's word), its payload on stdin. */
  entry: string;
  /** concurrent: the agent's own prompt is up beside Lookout's; serial: it waits until Lookout answers or lets go. */
  mode: 'concurrent' | 'serial';
  /** Installed only when the user asks for it (`hooks install --answer <agent>`). */
  optIn: boolean;
  /** How long the hook waits for an answer (ms): below the agent's own time limit for it. */
  wait: number;
  /** The handler install adds for it (and uninstall takes out). */
  edits(root: string, places: HookPlaces): HookEdit[];
  /** The prompt in the payload, or null when it is not one Lookout can answer (the agent's prompt decides). */
  read(payload: JsonRecord): AnswerDraft | null;
  /** What the hook prints for a decision: the agent's own output format. */
  reply(decision: AnswerDecision, payload: JsonRecord): string;
}

export interface AnswerDescriptor {
  /** The row's words when a prompt of this agent cannot be answered from Lookout. */
  hint: string;
  /** Its answering hook, or null when the answering rides in another install (a plugin) or does not exist. */
  hook: AnswerHook | null;
  /** Whether the agent can be answered at all, and how (`hooks status`, docs). */
  how: string;
  /** Its answering request follows the hook event that raised the prompt (a needs-you notification waits a beat for it). */
  followsHook: boolean;
}

/** The most of a prompt's text a card, a notification or `explain` carries. */
export const SHOWN_MAX = ANSWER_TEXT_MAX;

/** A payload string, cut to what a prompt may show. */
export function textOf(value: unknown, max = SHOWN_MAX): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/** Any JSON as readable text, whole, for a tool Lookout has no words of its own for. */
export function inputText(input: unknown): string {
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    return '';
  }
}

/** What is shown of a whole text, and how much of it is not (issue 47: never a silent cut). */
export function shownText(whole: string): { text: string; hidden: number } {
  return whole.length <= SHOWN_MAX ? { text: whole, hidden: 0 } : { text: whole.slice(0, SHOWN_MAX), hidden: whole.length - SHOWN_MAX };
}

/** The digest of a tool's whole input: what the agent runs, every field, whatever is shown. */
export function wholeDigest(tool: string, input: unknown): string {
  // Loaded at the first digest, not with every command (a status of the files never takes one).
  return process.getBuiltinModule('node:crypto').hash('sha256', inputText([tool, input]), 'hex');
}
