// node-notifier ships no types; this is the part Lookout uses.
declare module 'node-notifier' {
  interface NotifyOptions {
    title: string;
    message: string;
    wait?: boolean;
    timeout?: number;
    /** terminal-notifier (macOS): buttons; the one picked comes back as `activationValue`. */
    actions?: string[];
  }
  interface NotifyMetadata {
    activationType?: string;
    activationValue?: string;
  }
  const notifier: {
    notify(options: NotifyOptions, callback?: (error: Error | string | null, response?: string, metadata?: NotifyMetadata) => void): void;
  };
  export default notifier;
}
