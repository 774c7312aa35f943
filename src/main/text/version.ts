// This Lookout's version, set by the build from package.json (one source): `lookout --version`,
// `lookout doctor`, the feed's handshake and `hosts upgrade` compare it.
declare const LOOKOUT_VERSION_BUILT: string | undefined;

/** The version the bundle was built as; "dev" when run unbundled (tests importing the source). */
export const LOOKOUT_VERSION: string = typeof LOOKOUT_VERSION_BUILT === 'string' ? LOOKOUT_VERSION_BUILT : 'dev';

/** The oldest Node Lookout runs on (package.json `engines`, checked by a test; docs/install.md says why). */
export const NODE_MINIMUM = [20, 19] as const;

/** Whether a Node version ("20.20.2", "v22.1.0") is NODE_MINIMUM or newer. */
export function nodeAtLeast(version: string): boolean {
  const [major = 0, minor = 0] = version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10));
  if (Number.isNaN(major) || Number.isNaN(minor)) return false;
  return major > NODE_MINIMUM[0] || (major === NODE_MINIMUM[0] && minor >= NODE_MINIMUM[1]);
}
