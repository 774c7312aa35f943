// What a provider may keep about a file between runs (issue 14): what its head said (so a cold
// read of an unchanged or grown file skips the head) and what a background scan of its middle
// learned (titles a cold read of head and end cannot see), tied to the file's identity so a
// replaced, shrunk or rewritten file is never read through stale knowledge. Main persists it
// (LOOKOUT_HOME); providers only ask and tell, through this port.

/** A file as it was when last read. */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** A hash of its first bytes: a file rewritten in place (same inode) reads differently. */
  head: string;
}

/** What a scan of a file's middle learned, from its start up to `scannedTo`. */
export interface MiddleScan {
  scannedTo: number;
  /** The newest custom title (`/rename`) in the scanned part, and the newest summary title. */
  customTitle: string | null;
  summaryTitle: string | null;
}

/** The end's reading of an unchanged file (no transcript text in it), and what its read counted. */
export interface TailReading {
  facts: unknown;
  malformed: number;
  oversized: number;
  tailFrom: number;
}

export interface FileEntry {
  identity: FileIdentity;
  /** The head's reading in the provider's own shape (it validates it when it uses it); null when none was kept. */
  head: unknown;
  middle: MiddleScan | null;
  /** The end's reading, for a file unchanged since (same size and time): then the file is not opened at all. */
  tail?: TailReading | null;
}

export interface SessionIndexPort {
  /** The entry for this path — or for the same file (device and inode) under another path: it was moved. */
  get(provider: string, path: string, dev: number, ino: number): FileEntry | undefined;
  put(provider: string, path: string, entry: FileEntry): void;
  /** Whether any entry is kept under this path (no file is looked at for one that is not). */
  has(provider: string, path: string): boolean;
}

/** No index (a test, a provider without files): nothing kept, nothing known. */
export const NO_INDEX: SessionIndexPort = { get: () => undefined, put: () => undefined, has: () => false };
