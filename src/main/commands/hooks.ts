// `lookout hooks status|install|uninstall [--provider <id>]`: opt-in agent hooks, for the
// providers of the registry that offer them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hookProviders } from '../../providers';
import { resolveNow } from '../cli/now-option';
import { UsageError } from '../cli/usage-error';
import { printError, printLines } from '../text/terminal-text';
import { install, status, uninstall } from '../hooks/installer';
import { HooksFileError } from '../hooks/json-hooks';
import { loadState } from '../pipeline/state';

export async function hooksCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { provider: { type: 'string' }, answer: { type: 'string', multiple: true }, now: { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  const [action, ...extra] = positionals;
  if (action !== 'status' && action !== 'install' && action !== 'uninstall')
    throw new UsageError(`hooks takes status, install or uninstall${action === undefined ? '' : ` (got "${action}")`}`);
  if (extra.length > 0) throw new UsageError(`hooks ${action} takes no more arguments (got "${extra.join(' ')}")`);
  const offered = hookProviders();
  const named = values.provider === undefined ? offered : offered.filter((provider) => provider.id === values.provider);
  if (named.length === 0) throw new UsageError(`--provider is one of ${offered.map((provider) => provider.id).join(', ')} (got "${values.provider}")`);
  // Opt-in answering (issue 23): only agents whose answering hook waits before their own prompt need it.
  const optIn = offered.filter((provider) => provider.answer.hook?.optIn === true).map((provider) => provider.id);
  const answer = values.answer ?? [];
  const unknown = answer.find((id) => !optIn.includes(id));
  if (unknown !== undefined)
    throw new UsageError(`--answer is one of ${optIn.join(', ')} (the agents answered from Lookout only when asked; got "${unknown}")`);
  if (answer.length > 0 && action !== 'install') throw new UsageError('--answer goes with install (uninstall takes every answering hook out)');
  const now = resolveNow(values.now);
  const state = loadState(now);
  const context = { home: state.home, roots: state.roots, platform: process.platform, cli: join(__dirname, 'cli.cjs'), now, env: process.env, answer };
  // Install for every agent only touches the agents this machine has: none gets folders made for it unasked.
  const absent = action === 'install' && values.provider === undefined ? named.filter((provider) => !existsSync(state.roots[provider.id] ?? '')) : [];
  const chosen = named.filter((provider) => !absent.includes(provider));
  try {
    const outcome = action === 'install' ? install(context, chosen) : action === 'uninstall' ? uninstall(context, chosen) : status(context, chosen);
    printLines(process.stdout, [
      ...outcome.lines,
      ...absent.map((provider) => `${provider.id}: not found (no ${state.roots[provider.id] ?? ''}); skipped (--provider ${provider.id} installs it anyway)`),
    ]);
    return 0;
  } catch (error) {
    if (error instanceof HooksFileError) {
      printError(error.message);
      return 1;
    }
    throw error;
  }
}
