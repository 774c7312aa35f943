// <session> arguments: full key, full id, or a unique id prefix of at least 4 characters (cli.md).
import { describe, expect, it } from 'vitest';
import type { Row } from '../../../src/engine';
import { matchSession } from '../../../src/main/cli/session-match';
import { UsageError } from '../../../src/main/cli/usage-error';

const row = (key: string): Row => ({ key, provider: key.startsWith('claude') ? 'claude' : 'codex', sessionId: key.slice(key.indexOf(':') + 1) }) as Row;
const rows = [row('claude:7f0c1d2e-1111'), row('claude:7f0d0000-2222'), row('codex:0199a1b2-3333')];

describe('session arguments', () => {
  it.each([
    ['claude:7f0c1d2e-1111', 'claude:7f0c1d2e-1111'],
    ['7f0c1d2e-1111', 'claude:7f0c1d2e-1111'],
    ['7f0c', 'claude:7f0c1d2e-1111'],
    ['0199', 'codex:0199a1b2-3333'],
    ['codex:0199a', 'codex:0199a1b2-3333'],
  ])('%s resolves to %s', (query, key) => {
    expect(matchSession(rows, query).key).toBe(key);
  });

  it.each([
    ['7f0', /give at least 4 characters/],
    ['claude:0199', /no session matches "claude:0199"/],
  ])('%s is a usage error', (query, message) => {
    expect(() => matchSession(rows, query)).toThrow(UsageError);
    expect(() => matchSession(rows, query)).toThrow(message);
  });

  it('an ambiguous prefix lists the candidates', () => {
    expect(() => matchSession([...rows, row('claude:7f0c9999-4444')], '7f0c')).toThrow(/ambiguous: claude:7f0c1d2e-1111, claude:7f0c9999-4444/);
  });

  it('an unknown session says so', () => {
    expect(() => matchSession(rows, 'ffffffff')).toThrow(/no session matches "ffffffff"/);
  });
});

describe('session arguments with other machines (issue 13)', () => {
  const remote = (host: string, key: string): Row => ({ ...row(key), key: `${host}:${key}`, host }) as Row;

  it("a full key is exact; a full id is this machine's session first, never a remote row sorted before it", () => {
    const all = [remote('devbox', 'claude:7f0c1d2e-1111'), ...rows];
    expect(matchSession(all, '7f0c1d2e-1111').key).toBe('claude:7f0c1d2e-1111');
    expect(matchSession(all, 'devbox:claude:7f0c1d2e-1111').key).toBe('devbox:claude:7f0c1d2e-1111');
    // A remote row whose id is spelled like a local key does not take the local session's place.
    expect(matchSession([remote('devbox', 'claude:claude:7f0c1d2e-1111'), ...rows], 'claude:7f0c1d2e-1111').key).toBe('claude:7f0c1d2e-1111');
  });

  it('the same id on two other machines is ambiguous', () => {
    expect(() => matchSession([remote('devbox', 'claude:abcd-1'), remote('gpu', 'claude:abcd-1')], 'abcd-1')).toThrow(
      /ambiguous: devbox:claude:abcd-1, gpu:claude:abcd-1/,
    );
  });
});
