// node-notifier ships no types; this is the part Lookout uses.
declare module 'node-notifier' {
  interface NotifyOptions {
    title: string;
    message: string;
    wait?: boolean;
    timeout?: number;
  }
  const notifier: {
    notify(options: NotifyOptions, callback?: (error: Error | string | null, response?: string) => void): void;
  };
  export default notifier;
}
