// What a provider may keep about a file between runs (issue 14): what a background scan of the
// file's middle learned (titles a cold read of its head and end cannot see), tied to the file's
// identity so a replaced, shrunk or rewritten file is never read through stale knowledge. Main
// persists it (LOOKOUT_HOME); providers only ask and tell, through this port.

/** A file as it was when its facts were learned. */
export interface FileIdentity {
  dev: number;
  ino: number;
  /** The size scanned up to: the file may only have grown since. */
  size: number;
  /** A hash of its first bytes: a file rewritten in place (same inode) reads differently. */
  head: string;
}

/** What a scan of a file's middle learned. */
export interface MiddleFacts {
  identity: FileIdentity;
  /** The newest custom title (`/rename`) in the scanned part, and the newest summary title. */
  customTitle: string | null;
  summaryTitle: string | null;
}

export interface SessionIndexPort {
  get(provider: string, path: string): MiddleFacts | undefined;
  put(provider: string, path: string, facts: MiddleFacts): void;
}

/** No index (a one-shot without LOOKOUT_HOME, a test): nothing kept, nothing known. */
export const NO_INDEX: SessionIndexPort = { get: () => undefined, put: () => undefined };
