// Lookout's own folders at start: its home (watched for facts another process records) and the
// hooks' spool, private. A read-only home is said once; the rows still come from the agents' files.
import { errorCode } from '../../providers/problems';
import { privateFolder } from '../../providers/system/private-files';

export function ownFolders(home: string, spool: string, onProblem: (line: string) => void): void {
  try {
    privateFolder(home);
    privateFolder(spool);
  } catch (error) {
    // A locked-down machine, a full disk: only the hook spool and saving facts wait until it can be written.
    onProblem(
      `lookout: ${home} is read-only or cannot be created (${errorCode(error) ?? String(error)}); Lookout goes on without its hook spool and cannot save reviews, mutes or visits until it can`,
    );
  }
}
