// A test helper process: shows one notification through Lookout's notifier (bundled by the setup).
import { NodeNotifier } from '../../src/main/notify/notifier';

new NodeNotifier()
  .send({ claimIds: ['k|needs-you|1'], keys: ['claude:k'], title: 'Claude · api-server (main) needs you', body: 'Bash: npm publish' }, () => undefined)
  .then(
    () => process.stdout.write('sent\n'),
    (error: unknown) => {
      process.stdout.write(`failed: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
