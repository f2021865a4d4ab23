import type { RedisClient } from '../connection.js';
export type { RedisClient };

/** A Lua script with a stable name: defined once per connection and run by SHA (EVALSHA), never sent as text per call. */
export interface LuaCommand {
  name: string;
  /** How many of a call's leading values are keys; 'given': as many as the call passes (a script over a slice of keys). */
  numberOfKeys: number | 'given';
  lua: string;
}

type Argument = string | number | Buffer;

const definedOn = new WeakMap<RedisClient, Set<string>>();

/**
 * Runs a command, defining it on this connection the first time (ioredis then sends EVALSHA and falls back
 * to EVAL only when the server has not seen the script, e.g. after a restart).
 */
export async function runCommand<T>(
  redis: RedisClient,
  command: LuaCommand,
  keys: readonly string[],
  args: readonly Argument[] = [],
): Promise<T> {
  let names = definedOn.get(redis);
  if (names === undefined) definedOn.set(redis, (names = new Set()));
  if (!names.has(command.name)) {
    // Without numberOfKeys ioredis takes the key count from the call's first value.
    redis.defineCommand(command.name, {
      ...(command.numberOfKeys !== 'given' && { numberOfKeys: command.numberOfKeys }),
      lua: command.lua,
    });
    names.add(command.name);
  }
  const call = (redis as unknown as Record<string, (...values: Argument[]) => Promise<T>>)[command.name]!;
  return command.numberOfKeys === 'given' ? call.call(redis, keys.length, ...keys, ...args) : call.call(redis, ...keys, ...args);
}
