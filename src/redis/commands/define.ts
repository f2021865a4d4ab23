import type { RedisClient } from '../connection.js';
export type { RedisClient };

/** A Lua script with a stable name: defined once per connection and run by SHA (EVALSHA), never sent as text per call. */
export interface LuaCommand {
  name: string;
  numberOfKeys: number;
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
    redis.defineCommand(command.name, { numberOfKeys: command.numberOfKeys, lua: command.lua });
    names.add(command.name);
  }
  const call = (redis as unknown as Record<string, (...values: Argument[]) => Promise<T>>)[command.name]!;
  return call.call(redis, ...keys, ...args);
}
