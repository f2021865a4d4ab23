import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchVanishedError, RedisClientLimitError, RedisFullError, RedisUnavailableError } from '../../src/errors.js';
import { clientLimit, isConnectionFailure, typedRedisFailure } from '../../src/redis/failures.js';
import { RedisSupervisor, type SupervisorOptions } from '../../src/redis/supervisor.js';

/** A connection whose PING answers (or hangs) as the test says, and a clock the test moves. */
class FakeConnection extends EventEmitter {
  answering = true;
  disconnected = false;
  ping(): Promise<unknown> {
    return this.answering ? Promise.resolve('PONG') : new Promise(() => undefined);
  }
  disconnect(): void {
    this.disconnected = true;
  }
}

const lines: Array<{ level: string; message: string }> = [];
const log = (level: string) => (first: unknown, second?: string) =>
  lines.push({ level, message: typeof first === 'string' ? first : (second ?? '') });
const logger = { warn: log('warn'), error: log('error'), info: log('info') } as unknown as SupervisorOptions['logger'];

let now = 1_000_000;
const supervisors: RedisSupervisor[] = [];
function supervise(whenUnavailable: SupervisorOptions['whenUnavailable']): { connection: FakeConnection; supervisor: RedisSupervisor } {
  const connection = new FakeConnection();
  const supervisor = new RedisSupervisor(connection, {
    url: 'redis://user:hunter2@redis.internal:6379',
    unavailableTimeoutMs: 30_000,
    whenUnavailable,
    logger,
    monotonic: () => now,
    heartbeatMs: 1_000,
    reminderMs: 60_000,
  });
  supervisors.push(supervisor);
  return { connection, supervisor };
}

/** The connection drops: ioredis says why, then closes, and keeps reconnecting. */
function drop(connection: FakeConnection): void {
  connection.answering = false;
  connection.emit('error', Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6379'), { code: 'ECONNREFUSED' }));
  connection.emit('close');
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  for (const supervisor of supervisors.splice(0)) supervisor.stop();
  lines.splice(0);
});

describe('RedisSupervisor', () => {
  it('a one-shot command rides out a short outage, saying so once when it goes and once when it is back', async () => {
    const { connection, supervisor } = supervise('give_up');
    drop(connection);
    now += 10_000;
    supervisor.tick();
    expect(supervisor.health()).toMatchObject({ up: false, reason: 'connect ECONNREFUSED 10.0.0.5:6379' });
    connection.answering = true;
    connection.emit('ready');
    supervisor.tick();
    await flush();
    expect(supervisor.health().up).toBe(true);
    expect(supervisor.failedWith).toBeUndefined();
    expect(lines.map((line) => line.message)).toEqual([
      'Redis at redis://user:***@redis.internal:6379 is not answering (connect ECONNREFUSED 10.0.0.5:6379): waiting for it for up to 30 s (REDIS_UNAVAILABLE_TIMEOUT)',
      'Redis at redis://user:***@redis.internal:6379 is answering again',
    ]);
  });

  it('a one-shot command gives up past the budget: one typed error naming Redis without the password, and the connection stops retrying', async () => {
    const { connection, supervisor } = supervise('give_up');
    drop(connection);
    now += 29_000;
    supervisor.tick();
    expect(supervisor.failedWith).toBeUndefined();
    now += 1_000;
    supervisor.tick();
    await expect(supervisor.failure).rejects.toThrow(RedisUnavailableError);
    await expect(supervisor.failure).rejects.toThrow(
      /^Redis at redis:\/\/user:\*\*\*@redis\.internal:6379 did not answer for 30 s \(connect ECONNREFUSED/,
    );
    expect(supervisor.failedWith?.message).not.toContain('hunter2');
    expect(connection.disconnected).toBe(true);
  });

  it('a Redis that hangs (closes nothing, answers nothing) counts as gone too', async () => {
    const { connection, supervisor } = supervise('give_up');
    connection.answering = false;
    for (let second = 0; second < 31; second += 1) {
      now += 1_000;
      supervisor.tick();
    }
    await expect(supervisor.failure).rejects.toThrow(/no answer to PING/);
  });

  it('a service keeps retrying: an error line past the budget, then a reminder a minute, never a failure', () => {
    const { connection, supervisor } = supervise('keep_retrying');
    drop(connection);
    for (let second = 0; second < 150; second += 1) {
      now += 1_000;
      supervisor.tick();
    }
    expect(supervisor.failedWith).toBeUndefined();
    expect(connection.disconnected).toBe(false);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      expect.stringContaining('has not answered for 30 s (connect ECONNREFUSED 10.0.0.5:6379): still retrying'),
      expect.stringContaining('has not answered for 90 s'),
      expect.stringContaining('has not answered for 150 s'),
    ]);
  });

  it("BullMQ errors: connection failures are the supervisor's (not logged one by one), a full Redis fails the command, anything else is logged", async () => {
    const { supervisor } = supervise('keep_retrying');
    const listener = supervisor.errorListener('inquiry worker');
    for (let attempt = 0; attempt < 20; attempt += 1)
      listener(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:6379'), { code: 'ECONNREFUSED' }));
    expect(lines).toEqual([]);
    listener(new Error('Missing lock for job 42. moveToFinished'));
    expect(lines).toEqual([{ level: 'error', message: 'inquiry worker: Missing lock for job 42. moveToFinished' }]);
    listener(replyError("OOM command not allowed when used memory > 'maxmemory'."));
    await expect(supervisor.failure).rejects.toThrow(RedisFullError);
  });

  it('guard: work that ends first wins; a Redis failure of the work becomes typed; the supervisor failure ends work that hangs', async () => {
    const { supervisor } = supervise('give_up');
    await expect(supervisor.guard(Promise.resolve(7))).resolves.toBe(7);
    await expect(supervisor.guard(Promise.reject(replyError("OOM command not allowed when used memory > 'maxmemory'.")))).rejects.toThrow(
      /is full: it refuses writes/,
    );
    await expect(supervisor.guard(Promise.reject(new Error('Connection is closed.')))).rejects.toThrow(RedisUnavailableError);
    const vanished = new BatchVanishedError('b1');
    await expect(supervisor.guard(Promise.reject(vanished))).rejects.toBe(vanished);
    const hanging = supervisor.guard(new Promise(() => undefined));
    supervisor.fail(new RedisFullError('full'));
    await expect(hanging).rejects.toThrow('full');
  });
});

describe('Redis failures', () => {
  it('tells connection failures from answers', () => {
    expect(isConnectionFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionFailure(new Error('Connection is closed.'))).toBe(true);
    expect(isConnectionFailure(replyError('LOADING Redis is loading the dataset in memory'))).toBe(true);
    expect(isConnectionFailure(replyError("OOM command not allowed when used memory > 'maxmemory'."))).toBe(false);
    expect(isConnectionFailure(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
  });

  it('counts a cluster failing over or out of reach as a connection failure, a CROSSSLOT bug as not', () => {
    expect(isConnectionFailure(replyError('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isConnectionFailure(replyError('TRYAGAIN Multiple keys request during rehashing of slot'))).toBe(true);
    expect(isConnectionFailure(new Error('None of startup nodes is available'))).toBe(true);
    expect(isConnectionFailure(new Error('Failed to refresh slots cache.'))).toBe(true);
    expect(isConnectionFailure(replyError("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(false);
  });

  it('a full Redis is a typed error that says what to do; other answers stay what they are', () => {
    const full = typedRedisFailure(replyError("OOM command not allowed when used memory > 'maxmemory'. script: abc"), 'redis://:pw@h:6379');
    expect(full).toBeInstanceOf(RedisFullError);
    expect(full?.message).toBe(
      'Redis at redis://:***@h:6379 is full: it refuses writes (OOM: used memory is above its maxmemory, policy noeviction). Raise maxmemory, or free room by deleting batches you no longer need; then run the same command again',
    );
    expect(typedRedisFailure(new Error('WRONGTYPE Operation against a key'), 'redis://h:6379')).toBeUndefined();
  });

  it('a Redis at its maxclients is a typed error that says what to do, and INFO clients tells when it is', async () => {
    const limit = typedRedisFailure(replyError('ERR max number of clients reached'), 'redis://:pw@h:6379');
    expect(limit).toBeInstanceOf(RedisClientLimitError);
    expect(limit?.message).toMatch(
      /^Redis at redis:\/\/:\*\*\*@h:6379 refuses new connections: ERR max number of clients reached\. .*Raise Redis's maxclients/,
    );
    const info = (text: string) => ({ info: async () => text });
    expect(await clientLimit(info('# Clients\r\nconnected_clients:12\r\ncluster_connections:0\r\nmaxclients:12\r\n'))).toEqual({
      connected: 12,
      max: 12,
    });
    expect(await clientLimit(info('# Clients\r\nconnected_clients:12\r\n'))).toBeUndefined();
  });
});

function replyError(message: string): Error {
  const error = new Error(message);
  error.name = 'ReplyError';
  return error;
}
