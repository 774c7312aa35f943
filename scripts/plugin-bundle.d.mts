// Types for scripts/plugin-bundle.mjs, for the test that holds the generated plugin to its source.
export const PLUGIN_ENTRY: string;
export const PLUGIN_GENERATED: string;
export function bundlePlugin(): Promise<string>;
export function generatedModule(bundle: string): string;
export function writePluginModule(): Promise<boolean>;
