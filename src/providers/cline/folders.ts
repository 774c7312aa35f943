// Cline CLI's folders, as 3.0.65 resolves them (its bundled code): the data folder is
// CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data; sessions.db and the hubs' event logs
// are in CLINE_DB_DATA_DIR, else <data>/db; the messages in CLINE_SESSION_DATA_DIR, else <data>/sessions.
import { join } from 'node:path';
import type { ProviderDescriptor } from '../descriptor';
import { partFolder } from '../roots';

export const CLINE_ROOT: ProviderDescriptor['root'] = {
  env: 'CLINE_DATA_DIR',
  alsoEnv: [{ env: 'CLINE_DIR', subfolder: 'data' }],
  defaultFolder: join('.cline', 'data'),
  parts: [
    { folder: 'db', env: 'CLINE_DB_DATA_DIR' },
    { folder: 'sessions', env: 'CLINE_SESSION_DATA_DIR' },
  ],
};

export interface ClineFolders {
  db: string;
  sessions: string;
}

/** The database and sessions folders for this data folder, moved where Lookout's own environment says (the agent's). */
export function clineFolders(root: string, env: Readonly<Record<string, string | undefined>> = process.env): ClineFolders {
  return { db: partFolder(CLINE_ROOT, root, 'db', env), sessions: partFolder(CLINE_ROOT, root, 'sessions', env) };
}
