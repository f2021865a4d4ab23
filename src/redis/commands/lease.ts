import type { LuaCommand } from './define.js';

/**
 * A lease is one string key holding JSON with an `owner` field (and the holder's host and pid), with an
 * expiry. Acquiring it succeeds when it is free or already ours (the same owner taking it up again after a
 * restart); otherwise the current holder's value is returned.
 */
export const LEASE_ACQUIRE: LuaCommand = {
  name: 'bcLeaseAcquire',
  numberOfKeys: 1,
  lua: `
local current = redis.call('GET', KEYS[1])
if current == false then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return false
end
local ok, holder = pcall(cjson.decode, current)
if ok and type(holder) == 'table' and holder.owner == ARGV[1] then
  -- Our own owner id taken up again, maybe by another process: the value says which process holds it now.
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return false
end
return current`,
};

/** Extends the lease only while it is still ours: 1 renewed, 0 lost (expired or taken by another owner). */
export const LEASE_RENEW: LuaCommand = {
  name: 'bcLeaseRenew',
  numberOfKeys: 1,
  lua: `
local current = redis.call('GET', KEYS[1])
if current == false then return 0 end
local ok, holder = pcall(cjson.decode, current)
if ok and type(holder) == 'table' and holder.owner == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`,
};

/** Deletes the lease only while it is still ours, so a late release never frees somebody else's lease. */
export const LEASE_RELEASE: LuaCommand = {
  name: 'bcLeaseRelease',
  numberOfKeys: 1,
  lua: `
local current = redis.call('GET', KEYS[1])
if current == false then return 0 end
local ok, holder = pcall(cjson.decode, current)
if ok and type(holder) == 'table' and holder.owner == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`,
};

/**
 * Takes the lease from a holder whose process is known to be gone (see Lease.acquire), only if that holder
 * still has it: another process that took it meanwhile keeps it. ARGV: the gone owner, our value, ttl ms.
 * Returns false when the lease is now ours, else the current holder's value.
 */
export const LEASE_TAKE_OVER: LuaCommand = {
  name: 'bcLeaseTakeOver',
  numberOfKeys: 1,
  lua: `
local current = redis.call('GET', KEYS[1])
if current ~= false then
  local ok, holder = pcall(cjson.decode, current)
  if not (ok and type(holder) == 'table' and holder.owner == ARGV[1]) then return current end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return false`,
};
