// The events the plugin passes on to Lookout's spool; everything else opencode publishes is left alone.
// Event names and shapes: opencode's bus (permission.asked/replied and question.* since 1.1;
// permission.updated in 1.0), as its plugin `event` hook delivers them.
export const OPENCODE_PLUGIN_EVENTS = [
  'permission.asked',
  'permission.updated',
  'permission.replied',
  'question.asked',
  'question.replied',
  'question.rejected',
  'session.status',
  'session.idle',
  'session.error',
] as const;
