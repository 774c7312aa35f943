// A usage error: exit status 2 with one line saying what is wrong (cli.md).
export class UsageError extends Error {
  readonly exitCode = 2;
}
