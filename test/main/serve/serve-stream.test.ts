// Issue 11 item 5: an event-stream client that stops reading never makes `serve` buffer without
// limit: only the newest state waits, and a client stalled past a minute is closed.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LatestOnly } from '../../../src/main/serve/server';

/** A socket that stops taking data after `room` writes, until drained. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  destroyed = false;
  constructor(private room: number) {
    super();
  }
  write(chunk: string): boolean {
    this.written.push(chunk);
    this.room -= 1;
    return this.room > 0;
  }
  destroy(): this {
    this.destroyed = true;
    return this;
  }
  drain(room: number): void {
    this.room = room;
    this.emit('drain');
  }
}

describe('a stalled event-stream client', () => {
  it('gets no more writes while its socket is full; the newest state waits, and alone', () => {
    const response = new FakeResponse(2);
    const stream = new LatestOnly(response);
    for (let index = 0; index < 2000; index += 1) stream.send(`state ${index}`);
    // Two writes filled it; 1,998 later states were superseded in turn, never buffered.
    expect(response.written).toEqual(['state 0', 'state 1']);
    response.drain(10);
    expect(response.written).toEqual(['state 0', 'state 1', 'state 1999']);
    stream.send('state 2000');
    expect(response.written.at(-1)).toBe('state 2000');
  });

  it('a client stalled past a minute is closed at the next heartbeat; a reading one gets the beat', () => {
    let now = 0;
    const response = new FakeResponse(1);
    const stream = new LatestOnly(response, () => now);
    stream.send('state');
    now = 59_000;
    stream.beat();
    expect(response.destroyed).toBe(false);
    now = 61_000;
    stream.beat();
    expect(response.destroyed).toBe(true);
    const reading = new FakeResponse(100);
    new LatestOnly(reading).beat();
    expect(reading.written).toEqual([': beat\n\n']);
  });

  it('a heartbeat that fills the socket starts the stall clock too (no state needs to change)', () => {
    let now = 0;
    const response = new FakeResponse(1);
    const stream = new LatestOnly(response, () => now);
    stream.beat();
    now = 61_000;
    stream.beat();
    expect(response.destroyed).toBe(true);
  });
});
