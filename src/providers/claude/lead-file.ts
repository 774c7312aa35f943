// A Claude session file: the lead's records, and the inline sidechain records of 1.x (a child).
import type { JsonRecord } from '../jsonl/parse-record';
import type { Accumulator } from '../tailed-file';
import { ClaudeTranscript, claudeKeptBefore, opensClaudeTurn } from './transcript';

export class ClaudeLeadFile implements Accumulator {
  /** `lead`, `sidechain`: readings taken back from the session index (issue 14). */
  constructor(
    readonly lead = new ClaudeTranscript(),
    readonly sidechain = new ClaudeTranscript(),
  ) {}
  sawSidechain = false;

  get settled(): boolean {
    return this.lead.settled;
  }

  get headDone(): boolean {
    return this.lead.headDone;
  }

  opensTurn(record: JsonRecord): boolean {
    return opensClaudeTurn(record);
  }

  keptBefore(lines: readonly string[], end: number, wholeFile: boolean): number[] {
    return claudeKeptBefore(lines, end, wholeFile);
  }

  apply(record: JsonRecord): void {
    if (record.isSidechain === true) {
      this.sawSidechain = true;
      this.sidechain.apply(record);
    } else {
      this.lead.apply(record);
    }
  }
}
