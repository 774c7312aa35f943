// One JSON object per line over a stream socket, with a cap: a longer line ends the connection.
import type { Socket } from 'node:net';
import { ANSWER_LINE_MAX_BYTES } from '../../engine/answer-caps';

/** Calls `handle` with each parsed line (unparsable lines as undefined); ends the socket on an oversized one. */
export function readLines(socket: Socket, handle: (value: unknown) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      handle(parseLine(line));
      newline = pending.indexOf('\n');
    }
    if (Buffer.byteLength(pending) > ANSWER_LINE_MAX_BYTES) {
      pending = '';
      socket.destroy();
    }
  });
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

export function sendLine(socket: Socket, message: object): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(message)}\n`);
}
