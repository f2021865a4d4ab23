import { describe, expect, it } from 'vitest';
import { CallTally, type CallField } from '../../src/queue/call-tally.js';

function recording(fail = () => false) {
  const writes: [string, CallField, number][] = [];
  const tally = new CallTally(async (batchId, field, by) => {
    writes.push([batchId, field, by]);
    if (fail()) throw new Error('Connection is closed.');
  }, 60_000);
  return { tally, writes };
}

describe('CallTally: call counters written in bulk', () => {
  it('adds up the counts of each batch and field and writes each sum once', async () => {
    const { tally, writes } = recording();
    tally.add('b1', 'calls');
    tally.add('b1', 'calls');
    tally.add('b1', 'rateLimited');
    tally.add('b2', 'calls');
    await tally.flush();
    expect(writes).toEqual([
      ['b1', 'calls', 2],
      ['b1', 'rateLimited', 1],
      ['b2', 'calls', 1],
    ]);
    await tally.flush();
    expect(writes).toHaveLength(3);
  });

  it('issues the writes at once, before anything the caller writes after flush() (an outcome)', () => {
    const { tally, writes } = recording();
    tally.add('b1', 'calls');
    void tally.flush();
    expect(writes).toEqual([['b1', 'calls', 1]]);
  });

  it('keeps the counts of a failed write and reports the failure to the caller', async () => {
    let failing = true;
    const { tally, writes } = recording(() => failing);
    tally.add('b1', 'calls');
    await expect(tally.flush()).rejects.toThrow('Connection is closed.');
    failing = false;
    tally.add('b1', 'calls');
    await tally.flush();
    expect(writes.at(-1)).toEqual(['b1', 'calls', 2]);
  });

  it("hands one batch's counts to the write of its outcome, and takes them back when that write failed", async () => {
    const { tally, writes } = recording();
    tally.add('b1', 'calls');
    tally.add('b1', 'usableAnswers');
    tally.add('b2', 'calls');
    const counts = tally.take('b1');
    expect(counts).toEqual([
      ['calls', 1],
      ['usableAnswers', 1],
    ]);
    expect(tally.take('b1')).toEqual([]);
    tally.putBack('b1', counts);
    tally.add('b1', 'calls');
    await tally.flush();
    expect(writes).toEqual([
      ['b2', 'calls', 1],
      ['b1', 'calls', 2],
      ['b1', 'usableAnswers', 1],
    ]);
  });
});
