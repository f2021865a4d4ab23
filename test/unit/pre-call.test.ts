import { describe, expect, it } from 'vitest';
import { parseRate } from '../../src/config/index.js';
import { SendPacer } from '../../src/queue/pacer.js';
import type { RedisClient } from '../../src/redis/connection.js';
import { BATCH_CALL_NEEDED } from '../../src/redis/commands/batch.js';
import { PACER_CONFIRM_SLOT, PACER_PRE_CALL } from '../../src/redis/commands/pacer.js';

/**
 * The JS side of SendPacer.preCall over a client that records the commands it is sent: which commands a
 * pre-call costs on a standalone Redis and on a cluster. (The scripts themselves run against the real
 * Redis in test/pacing/pre-call.test.ts.)
 */
function recordingClient(isCluster: boolean, answered: boolean) {
  const sent: string[] = [];
  // A slot due now, epoch 0, Redis's now 1000, no rate fields: the reply of a reservation that sends at once.
  const slotNow = ['slot', '0', '0', '1000', '', '', '', ''];
  // The confirm of a reply read too late (a loaded machine): the record moved to now, go.
  const moved = ['0', '1001', '0'];
  const client: Record<string, unknown> = {
    isCluster,
    defineCommand(name: string) {
      client[name] = async () => {
        // A confirm is no slot of its own: what is asserted is which commands checked and reserved.
        if (name === PACER_CONFIRM_SLOT.name) return moved;
        sent.push(name);
        if (name === BATCH_CALL_NEEDED.name) return answered ? 'answered' : '';
        return name === PACER_PRE_CALL.name && answered ? ['answered'] : slotNow;
      };
    },
  };
  return { redis: client as unknown as RedisClient, sent };
}

const STANDING = { outcomesKey: 'b:{1}:outcomes', batchKey: 'b:{1}', round: 0 };

describe('the pacer pre-call (one command where the keys allow it)', () => {
  it('standalone and paced: one EVALSHA checks the outcome and reserves, and the first slot is that reservation', async () => {
    const { redis, sent } = recordingClient(false, false);
    const pre = await new SendPacer(redis, 'p', parseRate('200/s')).preCall(STANDING, '014:1');
    expect(pre.skip).toBeUndefined();
    await pre.nextSlot();
    expect(sent).toEqual([PACER_PRE_CALL.name]);
    // A second call of the same inquiry (after a 401) takes a slot of its own.
    await pre.nextSlot();
    expect(sent).toEqual([PACER_PRE_CALL.name, 'bcPacerReserveSlot']);
  });

  it('standalone, answered: one command and nothing else', async () => {
    const { redis, sent } = recordingClient(false, true);
    expect((await new SendPacer(redis, 'p', parseRate('200/s')).preCall(STANDING, '014:1')).skip).toBe('answered');
    expect(sent).toEqual([PACER_PRE_CALL.name]);
  });

  it('on a cluster the check and the reservation run apart (their keys are in different slots), the check first', async () => {
    const answered = recordingClient(true, true);
    expect((await new SendPacer(answered.redis, 'p', parseRate('200/s')).preCall(STANDING, '014:1')).skip).toBe('answered');
    expect(answered.sent).toEqual([BATCH_CALL_NEEDED.name]);
    const open = recordingClient(true, false);
    await (await new SendPacer(open.redis, 'p', parseRate('200/s')).preCall(STANDING, '014:1')).nextSlot();
    expect(open.sent).toEqual([BATCH_CALL_NEEDED.name, 'bcPacerReserveSlot']);
  });

  it('unpaced: the check alone', async () => {
    const { redis, sent } = recordingClient(false, true);
    expect((await new SendPacer(redis, 'p', parseRate('1000/s')).preCall(STANDING, '014:1')).skip).toBe('answered');
    expect(sent).toEqual([BATCH_CALL_NEEDED.name]);
  });
});
