// Lookout's entries in an agent's hooks file ({"hooks": {Event: [{matcher?, hooks: [handler]}]}}),
// added beside the user's own and taken out exactly. Pure: text in, text out. Edits touch only
// Lookout's entries: every other byte of the file (line endings, number spellings like 1e22 or
// 1.0, comments' neighbours, key order) stays as the user wrote it (jsonc-parser's edits).
import type { FormattingOptions } from 'jsonc-parser';
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import type { HookSpec } from '../../providers';

export type JsonObject = Record<string, unknown>;

export class HooksFileError extends Error {}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's own indentation (two spaces, four, a tab) and line ending, so added lines look like the user's. */
function formatting(text: string): FormattingOptions {
  const match = /\n([ \t]+)"/.exec(text);
  const indent = match?.[1];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (indent === undefined) return { insertSpaces: true, tabSize: 2, eol };
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** Parses a hooks file; a missing or empty file is an empty object, anything else malformed is refused. */
const BOM = '\uFEFF';

/** A byte-order mark some editors write is set aside for the edit and put back after it. */
function bomAround(text: string, edit: (body: string) => string): string {
  return text.startsWith(BOM) ? `${BOM}${edit(text.slice(1))}` : edit(text);
}

export function parseHooksFile(text: string | null, path: string): JsonObject {
  if (text === null || text.replace(BOM, '').trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith(BOM) ? text.slice(1) : text);
  } catch (error) {
    throw new HooksFileError(`${path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); fix it first — Lookout changed nothing`);
  }
  if (!isObject(value)) throw new HooksFileError(`${path} does not hold a JSON object; Lookout changed nothing`);
  if (value.hooks !== undefined && !isObject(value.hooks))
    throw new HooksFileError(`${path} has a "hooks" value that is not an object; Lookout changed nothing`);
  for (const [event, groups] of Object.entries((value.hooks as JsonObject | undefined) ?? {})) {
    if (!Array.isArray(groups)) throw new HooksFileError(`${path}: hooks.${event} is not a list; Lookout changed nothing`);
  }
  return value;
}

function isOurs(handler: unknown, command: string): boolean {
  return isObject(handler) && handler.command === command;
}

function ours(group: unknown, command: string): boolean {
  return isObject(group) && Array.isArray(group.hooks) && group.hooks.some((handler) => isOurs(handler, command));
}

export function hasOurHooks(settings: JsonObject, command: string): string[] {
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  return Object.entries(hooks)
    .filter(([, groups]) => Array.isArray(groups) && groups.some((group) => ours(group, command)))
    .map(([event]) => event);
}

/** One edit at a path (undefined removes), keeping every other byte. */
function edit(text: string, path: (string | number)[], value: unknown, insert = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: formatting(text), isArrayInsertion: insert }));
}

/** The JSON of a value laid out in the file's indentation, its later lines at `base`. */
function pretty(value: unknown, text: string, base: string): string {
  const { insertSpaces, tabSize } = formatting(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return JSON.stringify(value, null, insertSpaces === false ? '\t' : ' '.repeat(tabSize ?? 2))
    .split('\n')
    .join(`${eol}${base}`);
}

/**
 * Inserts after the last member of a non-empty array or object, laid out like that member (on its
 * own line at its indentation, or on the same line): the members already there keep their bytes,
 * which a general edit would reformat. Null when the container is empty or missing.
 */
function insertAfterLast(text: string, path: string[], member: (base: string) => string): string | null {
  const container = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, path);
  const items = container?.children ?? [];
  const last = items[items.length - 1];
  const previous = items[items.length - 2];
  if (container === undefined || last === undefined) return null;
  const before = previous === undefined ? container.offset + 1 : previous.offset + previous.length;
  const gap = text.slice(before, last.offset);
  const newline = gap.lastIndexOf('\n');
  const base = newline === -1 ? '' : gap.slice(newline + 1);
  const separator = newline === -1 ? ' ' : `${text.includes('\r\n') ? '\r\n' : '\n'}${base}`;
  const end = last.offset + last.length;
  return `${text.slice(0, end)},${separator}${member(base)}${text.slice(end)}`;
}

/**
 * Removes the member at `path` (an array element, or an object property) with the comma and space
 * that joined it to a neighbour, keeping every other byte.
 */
function remove(text: string, path: (string | number)[]): string {
  const root = parseTree(text);
  const target = root === undefined ? undefined : findNodeAtLocation(root, path);
  // A property's node is its value: the member to cut is the property around it.
  const member = target?.parent?.type === 'property' ? target.parent : target;
  const siblings = member?.parent?.children ?? [];
  const index = member === undefined ? -1 : siblings.indexOf(member);
  if (member === undefined || index === -1) return edit(text, path, undefined);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const end = member.offset + member.length;
  if (previous !== undefined) return `${text.slice(0, previous.offset + previous.length)}${text.slice(end)}`;
  if (next !== undefined) return `${text.slice(0, member.offset)}${text.slice(next.offset)}`;
  // The only member: the container is left empty, `[]` or `{}`.
  const container = member.parent;
  if (container === undefined) return text;
  return `${text.slice(0, container.offset + 1)}${text.slice(container.offset + container.length - 1)}`;
}

/** Sets `path` (an array element appended, or an object property added) keeping every other byte. */
function add(text: string, path: string[], key: string | null, value: unknown): string {
  // On its own line it is laid out like the file; on the line of a one-line array, compact.
  const inserted = insertAfterLast(
    text,
    path,
    (base) => (key === null ? '' : `${JSON.stringify(key)}: `) + (base === '' ? JSON.stringify(value) : pretty(value, text, base)),
  );
  // An empty or missing container holds no bytes of the user's: a general edit may lay it out.
  return inserted ?? edit(text, key === null ? path : [...path, key], key === null ? [value] : value);
}

/**
 * Adds one group per event holding Lookout's handler, after the user's own; events that have it
 * already are left alone. A missing or empty file becomes a new one.
 */
export function addHooks(text: string | null, specs: readonly HookSpec[], command: string, handlerExtra: Readonly<JsonObject> = {}): string {
  return bomAround(text ?? '', (body) => addToBody(body, specs, command, handlerExtra));
}

function addToBody(body: string, specs: readonly HookSpec[], command: string, handlerExtra: Readonly<JsonObject>): string {
  let next = body.trim() === '' ? '{}\n' : body;
  for (const spec of specs) {
    const settings = JSON.parse(next) as JsonObject;
    const hooks = isObject(settings.hooks) ? settings.hooks : {};
    const groups = hooks[spec.event];
    if (Array.isArray(groups) && groups.some((group) => ours(group, command))) continue;
    const handler = { type: 'command', command, ...handlerExtra };
    const group = spec.matcher === null ? { hooks: [handler] } : { matcher: spec.matcher, hooks: [handler] };
    if (Array.isArray(groups)) next = add(next, ['hooks', spec.event], null, group);
    else if (isObject(settings.hooks)) next = add(next, ['hooks'], spec.event, [group]);
    else next = add(next, [], 'hooks', { [spec.event]: [group] });
  }
  return next;
}

/** Where Lookout's handler is: the first one found, with how much of its group and event it is. */
function findOurs(settings: JsonObject, command: string): { event: string; group: number; handler: number; groupIsOurs: boolean; eventIsOurs: boolean } | null {
  const hooks = isObject(settings.hooks) ? settings.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const [index, group] of groups.entries()) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const handler = group.hooks.findIndex((item) => isOurs(item, command));
      if (handler === -1) continue;
      const groupIsOurs = group.hooks.every((item) => isOurs(item, command));
      return { event, group: index, handler, groupIsOurs, eventIsOurs: groupIsOurs && groups.length === 1 };
    }
  }
  return null;
}

/**
 * Takes out Lookout's handlers only: a group that held nothing else goes with it, and an event
 * (or the whole "hooks") that held nothing else too. A handler of the user's that shares a group
 * with Lookout's stays, and so does every other byte.
 */
export function removeHooks(text: string, command: string): string {
  return bomAround(text, (body) => removeFromBody(body, command));
}

function removeFromBody(body: string, command: string): string {
  let next = body;
  for (let found = findOurs(JSON.parse(next) as JsonObject, command); found !== null; found = findOurs(JSON.parse(next) as JsonObject, command)) {
    if (!found.groupIsOurs) next = remove(next, ['hooks', found.event, found.group, 'hooks', found.handler]);
    else if (!found.eventIsOurs) next = remove(next, ['hooks', found.event, found.group]);
    else {
      const hooks = (JSON.parse(next) as JsonObject).hooks;
      next = isObject(hooks) && Object.keys(hooks).length === 1 ? remove(next, ['hooks']) : remove(next, ['hooks', found.event]);
    }
  }
  return next;
}
