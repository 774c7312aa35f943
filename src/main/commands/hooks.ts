// `lookout hooks status|install|uninstall [--provider claude|codex]`: opt-in agent hooks.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveNow } from '../clock';
import type { HookProvider } from '../hooks/installer';
import { install, status, uninstall } from '../hooks/installer';
import { HooksFileError } from '../hooks/json-hooks';
import { loadState } from '../state';
import { UsageError } from '../usage-error';

export async function hooksCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { provider: { type: 'string' }, now: { type: 'string' } }, strict: true, allowPositionals: true });
  const [action, ...extra] = positionals;
  if (action !== 'status' && action !== 'install' && action !== 'uninstall') throw new UsageError(`hooks takes status, install or uninstall${action === undefined ? '' : ` (got "${action}")`}`);
  if (extra.length > 0) throw new UsageError(`hooks ${action} takes no more arguments (got "${extra.join(' ')}")`);
  const provider = values.provider;
  if (provider !== undefined && provider !== 'claude' && provider !== 'codex') throw new UsageError(`--provider is claude or codex (got "${provider}")`);
  const providers: HookProvider[] = provider === undefined ? ['claude', 'codex'] : [provider];
  const now = resolveNow(values.now);
  const state = loadState(now);
  const context = { home: state.home, roots: state.roots, platform: process.platform, cli: join(__dirname, 'cli.cjs'), now };
  try {
    const outcome = action === 'install' ? install(context, providers) : action === 'uninstall' ? uninstall(context, providers) : status(context, providers);
    process.stdout.write(`${outcome.lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof HooksFileError) {
      process.stderr.write(`lookout: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
