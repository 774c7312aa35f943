// Settings: timings, notification switches, quiet hours, the open template, where the agents'
// files are, hooks, whether this popover answers prompts.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PopoverCommand, SettingsView as Settings } from '../../engine/contract';
import type { QuietDraft } from '../quiet-form';
import { isTimeOfDay, quietChange, quietDraft, quietZoneLine } from '../quiet-form';

// Nine agents read as a sentence ("A, B, and C"), not "A and B and C".
const AND = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });
const OR = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });

const EDITABLE: { key: string; label: string }[] = [
  { key: 'toolPendingGrace', label: 'Tool call reads as running for (s)' },
  { key: 'staleAfter', label: 'Evidence goes stale after (s)' },
  { key: 'historicalAfter', label: 'Sessions turn historical after (s)' },
  { key: 'ambiguousNotifyAfter', label: 'Notify "may be waiting" after (s)' },
  { key: 'longJobFloor', label: 'Finish notices for turns longer than (s)' },
  { key: 'finishedTick', label: 'Show a finish tick for (s)' },
  { key: 'escalateAfter', label: 'Bring back a muted session still waiting after (s; 0 never)' },
];

type RuleAction = 'mute' | 'notify-never' | 'notify-needs-you' | 'review-after-finish';
const RULE_ACTIONS: { value: RuleAction; label: string }[] = [
  { value: 'mute', label: 'mute' },
  { value: 'notify-never', label: 'never notify' },
  { value: 'notify-needs-you', label: 'notify only when it needs you' },
  { value: 'review-after-finish', label: 'needs review after a finish' },
];

const SWITCHES: { key: 'enabled' | 'needsYou' | 'failed' | 'finished' | 'limits'; label: string }[] = [
  { key: 'enabled', label: 'Notifications' },
  { key: 'needsYou', label: 'When a session needs you' },
  { key: 'failed', label: 'When a turn fails' },
  { key: 'finished', label: 'When a long job finishes' },
  { key: 'limits', label: 'When a usage limit stops work, and when it resets' },
];

const seconds = (timings: Record<string, number>): Record<string, string> =>
  Object.fromEntries(EDITABLE.map((item) => [item.key, String(Math.round((timings[item.key] ?? 0) / 1000))]));

interface Props {
  settings: Settings;
  onCommand: (command: PopoverCommand) => Promise<boolean>;
  onBack: () => void;
  notice: string;
}

export function SettingsView({ settings, onCommand, onBack, notice }: Props) {
  const [timings, setTimings] = useState<Record<string, string>>(() => seconds(settings.timings));
  const [notifications, setNotifications] = useState(settings.notifications);
  const [template, setTemplate] = useState((settings.openCommand ?? []).join('\n'));
  const [status, setStatus] = useState('');
  const [ruleFolder, setRuleFolder] = useState('');
  const [ruleAction, setRuleAction] = useState<RuleAction>('mute');
  const [quiet, setQuiet] = useState<QuietDraft>(() => quietDraft(settings.quietHours));
  const edited = useRef(false);
  // Settings changed elsewhere (another window, the file) show up until the user starts editing.
  useEffect(() => {
    if (edited.current) return;
    setTimings(seconds(settings.timings));
    setNotifications(settings.notifications);
    setTemplate((settings.openCommand ?? []).join('\n'));
    setQuiet(quietDraft(settings.quietHours));
  }, [settings]);
  const edit = (): void => {
    edited.current = true;
  };
  const invalid = EDITABLE.filter((item) => !/^\d+$/.test((timings[item.key] ?? '').trim()) || Number(timings[item.key]) < 1);
  const save = async (): Promise<void> => {
    if (invalid.length > 0) {
      setStatus(`Whole numbers of seconds, at least 1: ${invalid.map((item) => item.label.replace(/ \(s\)$/, '')).join('; ')}.`);
      return;
    }
    // Checked with the contract's schema: a time that is no time is said here, in one line, and nothing is sent.
    const quietHours = quietChange(quiet, settings.quietHours);
    if (!quietHours.ok) {
      setStatus(quietHours.error);
      return;
    }
    const lines = template
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    const ms = Object.fromEntries(EDITABLE.map((item) => [item.key, Number(timings[item.key]) * 1000]));
    // A page that may not change programs sends no open template at all (the host would refuse it).
    const program = settings.programsEditable ? { openCommand: lines.length === 0 ? null : lines } : {};
    const ok = await onCommand({
      type: 'settings',
      timings: ms,
      notifications,
      ...program,
      ...(quietHours.change === undefined ? {} : { quietHours: quietHours.change }),
    });
    edited.current = !ok;
    // Refused, the runtime's reason shows instead (one line: the popover's notice).
    setStatus(ok ? 'Saved.' : '');
  };
  return (
    <section class="settings" aria-label="Settings">
      <div class="settings-head">
        <button type="button" onClick={onBack}>
          ← Back
        </button>
        <h2>Settings</h2>
      </div>
      <fieldset>
        <legend>Notifications</legend>
        {SWITCHES.map((item) => (
          <label key={item.key}>
            <input
              type="checkbox"
              checked={notifications[item.key]}
              onChange={(event) => {
                edit();
                setNotifications({ ...notifications, [item.key]: event.currentTarget.checked });
              }}
            />{' '}
            {item.label}
          </label>
        ))}
      </fieldset>
      {settings.quietHours !== undefined && (
        <fieldset>
          <legend>Quiet hours</legend>
          <label>
            <input
              type="checkbox"
              checked={quiet.on}
              onChange={(event) => {
                edit();
                setQuiet({ ...quiet, on: event.currentTarget.checked });
              }}
            />{' '}
            Quiet hours every day: notifications held, then told in one digest
          </label>
          <div class="quiet-times">
            {(['from', 'to'] as const).map((end) => (
              <label key={end}>
                {end === 'from' ? 'From' : 'until'}{' '}
                <input
                  type="text"
                  class="time"
                  inputMode="numeric"
                  maxLength={5}
                  placeholder={end === 'from' ? '22:00' : '07:00'}
                  aria-label={end === 'from' ? 'Quiet hours start (HH:MM)' : 'Quiet hours end (HH:MM)'}
                  disabled={!quiet.on}
                  aria-invalid={quiet.on && !isTimeOfDay(quiet[end])}
                  value={quiet[end]}
                  onInput={(event) => {
                    edit();
                    setQuiet({ ...quiet, [end]: event.currentTarget.value });
                  }}
                />
              </label>
            ))}
          </div>
          <p class="hint">{quietZoneLine(settings.quietHours)}</p>
        </fieldset>
      )}
      <fieldset>
        <legend>Timings</legend>
        {EDITABLE.map((item) => (
          <label key={item.key}>
            {item.label}{' '}
            <input
              type="number"
              min="1"
              step="1"
              aria-invalid={invalid.includes(item)}
              value={timings[item.key] ?? ''}
              onInput={(event) => {
                edit();
                setTimings({ ...timings, [item.key]: event.currentTarget.value });
              }}
            />
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Open a session with</legend>
        <label>
          One argument per line; {'{cwd}'}, {'{sessionId}'} and {'{provider}'} are filled in. Empty: tmux pane, else a terminal, else the folder.
          {!settings.programsEditable && ' This page shows it read-only: it names a program to run, so it changes only in settings.json or in the Lookout app.'}
          <textarea
            rows={4}
            value={template}
            readOnly={!settings.programsEditable}
            onInput={(event) => {
              edit();
              setTemplate(event.currentTarget.value);
            }}
          />
        </label>
      </fieldset>
      <fieldset>
        <legend>Agent hooks (optional)</legend>
        <p class="hint">{`Hooks let ${AND.format(settings.providers.filter((provider) => provider.hooks).map((provider) => provider.name))} tell Lookout directly when they ask for approval. Lookout installs them only when you press a button here, and removes them exactly.`}</p>
        {settings.hooks.map((line, index) => (
          <p class="hook-line" key={index}>
            {line}
          </p>
        ))}
        {settings.providers
          .filter((provider) => provider.hooks)
          .map((provider) => (
            <div class="hook-actions" key={provider.id}>
              <button
                type="button"
                onClick={() => void onCommand({ type: 'hooks', action: 'install', provider: provider.id })}
              >{`Install ${provider.name} hooks`}</button>
              <button
                type="button"
                onClick={() => void onCommand({ type: 'hooks', action: 'uninstall', provider: provider.id })}
              >{`Remove ${provider.name} hooks`}</button>
            </div>
          ))}
      </fieldset>
      <fieldset>
        <legend>Answering prompts</legend>
        <p class="hint">
          {settings.answering.allowed
            ? 'A prompt an agent brings to Lookout (its hooks installed) shows on its row with Allow and Deny, or its options. Keys answer it only a moment after it appears.'
            : `This page shows prompts but cannot answer them: ${settings.answering.why ?? 'not allowed here'}. Set "answerFromBrowser": true in settings.json to answer from it.`}
        </p>
      </fieldset>
      <fieldset>
        <legend>Rules</legend>
        {settings.rules.length === 0 && <p>None.</p>}
        {settings.rules.map((rule) => (
          <div class="rule-line" key={rule.id}>
            <span>{rule.line}</span>
            <button type="button" aria-label={`Remove rule ${rule.id}`} onClick={() => void onCommand({ type: 'rule-remove', id: rule.id })}>
              Remove
            </button>
          </div>
        ))}
        <div class="rule-add">
          <input
            type="text"
            aria-label="Rule folder"
            placeholder="~/work/noisy/**"
            value={ruleFolder}
            onInput={(event) => setRuleFolder((event.target as HTMLInputElement).value)}
          />
          <select aria-label="Rule action" value={ruleAction} onChange={(event) => setRuleAction((event.target as HTMLSelectElement).value as RuleAction)}>
            {RULE_ACTIONS.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            onClick={() => {
              const folder = ruleFolder.trim();
              // Said here, not sent: the runtime would refuse it the same way.
              if (!/^(\/|~\/)/.test(folder)) setStatus("a rule's folder: an absolute folder or one under ~/");
              else void onCommand({ type: 'rule-add', folder, action: ruleAction }).then((ok) => ok && setRuleFolder(''));
            }}
          >
            Add rule
          </button>
        </div>
        <p class="hint">A row's Mute → "this project" adds one too; `lookout rules add` also matches by provider and host.</p>
      </fieldset>
      {settings.phone !== undefined && <PhoneSection phone={settings.phone} addable={settings.programsEditable} onCommand={onCommand} setStatus={setStatus} />}
      <fieldset>
        <legend>Other machines (over ssh)</legend>
        {settings.hosts.length === 0 && <p>None.</p>}
        {settings.hosts.map((host) => (
          <p class="host-line" key={host.name}>{`${host.name} (${host.destination}): ${host.state}`}</p>
        ))}
        <p class="hint">Add one with `lookout hosts add devbox` (an ssh destination); the other machine needs Node and Lookout.</p>
      </fieldset>
      <fieldset>
        <legend>Where the agents keep their files</legend>
        {settings.providers.map((provider) => (
          <p key={provider.id}>{`${provider.name}: ${provider.root}`}</p>
        ))}
        <p class="hint">{`Set ${OR.format(settings.providers.map((provider) => provider.rootVariable))} to read other folders.`}</p>
      </fieldset>
      <button type="button" class="primary" onClick={() => void save()}>
        Save
      </button>
      <span role="status">{status === '' ? notice : status}</span>
    </section>
  );
}

interface PhoneProps {
  phone: NonNullable<Settings['phone']>;
  /** Only the app's own window adds a channel (it names where notifications go). */
  addable: boolean;
  onCommand: (command: PopoverCommand) => Promise<boolean>;
  setStatus: (text: string) => void;
}

/** The phone (issue 49, R90): each channel with its last word, when they send, a test, an ntfy topic added. */
function PhoneSection({ phone, addable, onCommand, setStatus }: PhoneProps) {
  const [target, setTarget] = useState('');
  const [token, setToken] = useState('');
  const send = (command: PopoverCommand, done: string): void => {
    setStatus('');
    void onCommand(command).then((ok) => ok && setStatus(done));
  };
  return (
    <fieldset class="phone">
      <legend>Phone</legend>
      {phone.problem !== null && <p class="hint">{phone.problem}</p>}
      {phone.channels.length === 0 && <p>None.</p>}
      {phone.channels.map((channel) => (
        <div class="rule-line phone-line" key={channel.id}>
          <span>
            {channel.line}
            <br />
            <small class={channel.failing ? 'phone-failing' : 'hint'}>{channel.health}</small>
          </span>
          <button type="button" aria-label={`Remove phone channel ${channel.id}`} onClick={() => send({ type: 'phone-remove', id: channel.id }, 'Removed.')}>
            Remove
          </button>
        </div>
      ))}
      <label>
        <input
          type="checkbox"
          checked={phone.mode === 'always'}
          onChange={(event) => send({ type: 'phone-mode', mode: event.currentTarget.checked ? 'always' : 'away' }, 'Saved.')}
        />{' '}
        Send every notification to the phone, not only while I am away
      </label>
      {phone.channels.length > 0 && (
        <button type="button" onClick={() => send({ type: 'phone-test' }, 'Test sent.')}>
          Send a test
        </button>
      )}
      {addable ? (
        <div class="rule-add">
          <input
            type="text"
            aria-label="ntfy server and topic"
            placeholder="ntfy.sh/my-lookout-topic"
            value={target}
            onInput={(event) => setTarget((event.target as HTMLInputElement).value)}
          />
          <input
            type="password"
            aria-label="ntfy access token (optional)"
            placeholder="access token (optional)"
            autoComplete="off"
            value={token}
            onInput={(event) => setToken((event.target as HTMLInputElement).value)}
          />
          <button
            type="button"
            onClick={() => {
              const trimmed = token.trim();
              void onCommand({ type: 'phone-add-ntfy', target: target.trim(), token: trimmed === '' ? null : trimmed }).then((ok) => {
                if (!ok) return;
                setTarget('');
                setToken('');
                setStatus('Added: subscribe to the topic in the ntfy app, then send a test.');
              });
            }}
          >
            Add ntfy
          </button>
        </div>
      ) : (
        <p class="hint">Add a channel in the Lookout app or with `lookout phone add` (a page in a browser may not choose where notifications go).</p>
      )}
      <p class="hint">Telegram: `lookout phone add telegram` in a terminal (the bot token is read there). See docs/phone.md.</p>
    </fieldset>
  );
}
