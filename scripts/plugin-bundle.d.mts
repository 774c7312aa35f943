// Types for scripts/plugin-bundle.mjs, for the tests that hold the generated modules to their sources.
export const PLUGIN_ENTRY: string;
export const PLUGIN_GENERATED: string;
export const EXTENSION_ENTRY: string;
export const EXTENSION_GENERATED: string;
export function bundlePlugin(): Promise<string>;
export function bundleExtension(): Promise<string>;
export function generatedModule(bundle: string): string;
export function extensionModule(bundle: string): string;
export function writePluginModules(): Promise<string[]>;
