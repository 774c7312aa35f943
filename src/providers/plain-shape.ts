// A check that a value read back from Lookout's own cache is a flat record of the expected fields.
// Hand-written rather than a schema library's: a cold start checks thousands of such records, and
// a schema's parse cost more than the head reads the cache saves (docs/session-index.md).

/** What a field must hold: `?` allows null, or no field at all (read as null: caches leave nulls out). */
export type FieldKind = 'string' | 'number' | 'string?' | 'number?';

type FieldValue<K extends FieldKind> = K extends 'string' ? string : K extends 'number' ? number : K extends 'string?' ? string | null : number | null;

export type ShapeOf<S extends Record<string, FieldKind>> = { [Key in keyof S]: FieldValue<S[Key]> };

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string?':
      return value === null || value === undefined || typeof value === 'string';
    case 'number?':
      return value === null || value === undefined || (typeof value === 'number' && Number.isFinite(value));
  }
}

/** Whether `value` is an object whose every named field fits (other fields are ignored). */
export function hasShape<S extends Record<string, FieldKind>>(value: unknown, shape: S): value is ShapeOf<S> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in shape) if (!fits(record[key], shape[key] as FieldKind)) return false;
  return true;
}

/** Only the named fields of a checked record (a cache may hold more than a reader takes); an absent one is null. */
export function pick<S extends Record<string, FieldKind>>(value: ShapeOf<S>, shape: S): ShapeOf<S> {
  const out: Partial<Record<keyof S, unknown>> = {};
  for (const key in shape) out[key] = value[key] ?? null;
  return out as ShapeOf<S>;
}

/** A record to keep, without its null fields and empty lists (read back as null and empty). */
export function withoutEmpty(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) out[key] = value;
  }
  return out;
}
