// What `hooks install` writes at the top of the plugin file, before the bundle: the folders and
// names of this install. The bundle is the same text for every install (issue 48).

export interface PluginConfig {
  /** Lookout's spool folder, and the spool file there this plugin appends to. */
  spool: string;
  file: string;
  /** Lookout's run folder (the answer channel's socket, token and owner pid). */
  run: string;
  /** Whose prompts these are: opencode, or a fork that loads opencode's plugins. */
  provider: string;
}

// Defined by the line plugin.ts writes above the bundle; a free name the bundler leaves as it is.
declare const LOOKOUT_PLUGIN: PluginConfig;

export const config = (): PluginConfig => LOOKOUT_PLUGIN;

/** Any object's fields, read without trusting their shape (what opencode hands over is not checked). */
export type Bag = Readonly<Record<string, unknown>>;
export const bag = (value: unknown): Bag | null => (typeof value === 'object' && value !== null ? (value as Bag) : null);
