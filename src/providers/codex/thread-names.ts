// session_index.jsonl: thread names, newest line per id wins.
import type { JsonRecord } from '../jsonl/parse-record';
import { str } from '../jsonl/parse-record';
import type { Accumulator } from '../tailed-file';

export class ThreadNames implements Accumulator {
  readonly names = new Map<string, string>();
  readonly settled = false;
  readonly headDone = true;

  apply(record: JsonRecord): void {
    const id = str(record.id);
    const name = str(record.thread_name);
    if (id !== null && name !== null && name.trim() !== '') this.names.set(id, name.trim());
  }
}
