// `lookout serve [--port <n>] [--notify]`: the popover in a browser; the first stdout line is its URL.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveNow } from '../cli/now-option';
import { untilInterrupted } from './interrupted';
import { flowingClock } from '../pipeline/clock';
import { PopoverHost } from '../popover/popover-host';
import { Runtime } from '../runtime/runtime';
import { startServer } from '../serve/server';
import { UsageError } from '../cli/usage-error';
import { printLines } from '../text/terminal-text';
import { commandLineNotifier } from '../notify/notifier';
import { openFromNotification } from './notification-open';

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, now: { type: 'string' }, notify: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535 (got "${values.port}")`);
  const assets = join(__dirname, 'popover');
  if (!existsSync(join(assets, 'index.html'))) throw new Error(`the popover is not built (${assets}); run npm install`);
  const clock = flowingClock(resolveNow(values.now));
  let host: PopoverHost | null = null;
  const pending: string[] = [];
  const runtime = new Runtime({
    env: process.env,
    clock,
    // --notify: desktop notifications as `watch --notify` sends them (issue 25: it was listed and did nothing).
    notifier: values.notify === true ? commandLineNotifier() : null,
    onOpen: (keys) => openFromNotification(runtime, keys),
    onProblem: (line) => {
      printLines(process.stderr, [line]);
      if (host === null) pending.push(line);
      else host.addProblem(line);
    },
  });
  // A browser page never edits which programs Lookout runs (issue 11: the token is not enough).
  host = new PopoverHost(runtime, clock, false);
  for (const line of pending) host.addProblem(line);
  await runtime.start();
  const server = await startServer(host, assets, port);
  // Listening for Ctrl-C before the URL is out: a caller may stop it as soon as it reads the URL.
  const interrupted = untilInterrupted();
  process.stdout.write(`${server.url}\n`);
  await interrupted;
  await server.close();
  await runtime.dispose();
  return 0;
}
