// The options `lookout status` takes, one table for the command line and for the loader that asks
// the running Lookout first (issue 51): the two must refuse and accept the same arguments.
export const STATUS_OPTIONS = {
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  wide: { type: 'boolean' },
  now: { type: 'string' },
  cold: { type: 'boolean' },
} as const;
