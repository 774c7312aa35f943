// Every IPC channel between the popover window and the main process, in one registry.
const CHANNELS = ['lookout:state', 'lookout:command', 'lookout:explain', 'lookout:hide', 'lookout:ready'] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL: { [K in 'state' | 'command' | 'explain' | 'hide' | 'ready']: Channel } = {
  state: 'lookout:state',
  command: 'lookout:command',
  explain: 'lookout:explain',
  hide: 'lookout:hide',
  ready: 'lookout:ready',
};
