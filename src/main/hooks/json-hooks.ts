// Lookout's entries in an agent's hooks file ({"hooks": {Event: [{matcher?, hooks: [handler]}]}}),
// added beside the user's own and taken out exactly. Pure: text in, text out.

export interface HookSpec {
  event: string;
  /** Tool events take a matcher ("*" = every tool); others none. */
  matcher: string | null;
}

export type JsonObject = Record<string, unknown>;

export class HooksFileError extends Error {}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's own indentation (two spaces, four, a tab), so a rewrite looks like the user's. */
export function detectIndent(text: string): string | number {
  const match = /\n([ \t]+)"/.exec(text);
  if (match?.[1] === undefined) return 2;
  return match[1].startsWith('\t') ? '\t' : match[1].length;
}

/** Parses a hooks file; a missing or empty file is an empty object, anything else malformed is refused. */
export function parseHooksFile(text: string | null, path: string): JsonObject {
  if (text === null || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HooksFileError(`${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it first — Lookout changed nothing`);
  }
  if (!isObject(value)) throw new HooksFileError(`${path} does not hold a JSON object; Lookout changed nothing`);
  if (value.hooks !== undefined && !isObject(value.hooks)) throw new HooksFileError(`${path} has a "hooks" value that is not an object; Lookout changed nothing`);
  for (const [event, groups] of Object.entries((value.hooks as JsonObject | undefined) ?? {})) {
    if (!Array.isArray(groups)) throw new HooksFileError(`${path}: hooks.${event} is not a list; Lookout changed nothing`);
  }
  return value;
}

function ours(group: unknown, command: string): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.some((handler) => isObject(handler) && handler.command === command);
}

export function hasOurHooks(settings: JsonObject, command: string): string[] {
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  return Object.entries(hooks)
    .filter(([, groups]) => Array.isArray(groups) && groups.some((group) => ours(group, command)))
    .map(([event]) => event);
}

/** Adds one group per event holding Lookout's handler; events that have it already are left alone. */
export function addHooks(settings: JsonObject, specs: readonly HookSpec[], command: string, handlerExtra: JsonObject = {}): JsonObject {
  const hooks: JsonObject = isObject(settings.hooks) ? { ...settings.hooks } : {};
  for (const spec of specs) {
    const groups = Array.isArray(hooks[spec.event]) ? [...(hooks[spec.event] as unknown[])] : [];
    if (groups.some((group) => ours(group, command))) continue;
    const handler = { type: 'command', command, ...handlerExtra };
    groups.push(spec.matcher === null ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] });
    hooks[spec.event] = groups;
  }
  return { ...settings, hooks };
}

/** Takes out every group holding Lookout's handler, and what only Lookout had put there. */
export function removeHooks(settings: JsonObject, command: string): JsonObject {
  if (!isObject(settings.hooks)) return settings;
  const hooks: JsonObject = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups.filter((group) => !ours(group, command));
    if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
  }
  const next: JsonObject = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return next;
}

export function render(settings: JsonObject, indent: string | number): string {
  return `${JSON.stringify(settings, null, indent)}\n`;
}
