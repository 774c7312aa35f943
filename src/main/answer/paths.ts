// Where the answer channel lives: a private folder in LOOKOUT_HOME holding the socket, the token
// the clients read, the owner's pid (the hook's cheap "is Lookout running?") and the requests file.
import { join } from 'node:path';

export const runFolder = (home: string): string => join(home, 'run');
export const socketPath = (home: string): string => join(runFolder(home), 'answer.sock');
export const tokenPath = (home: string): string => join(runFolder(home), 'answer.token');
export const ownerPath = (home: string): string => join(runFolder(home), 'answer.pid');
export const requestsPath = (home: string): string => join(runFolder(home), 'requests.json');

/** sockaddr_un holds 104 bytes on macOS (108 on Linux), the final NUL included. */
const SOCKET_PATH_MAX = 103;

/** Why the socket cannot live at that path, or null when it can. */
export function socketPathProblem(path: string): string | null {
  const bytes = Buffer.byteLength(path);
  return bytes > SOCKET_PATH_MAX
    ? `the socket path ${path} is ${bytes} bytes, over the ${SOCKET_PATH_MAX} a Unix socket allows (set LOOKOUT_HOME to a shorter folder)`
    : null;
}
