import { RedisScript } from './redis-script.js';

/*
 * The Lua scripts of the Redis counter store. Each runs atomically inside Redis; every key one call touches is
 * tagged with the same account, so each script also runs unchanged on a Redis Cluster. Times are the caller's
 * clock (nowMs passed in), never Redis TIME; key TTLs are only housekeeping (real time, generous margins).
 * Scores and big numbers are passed on as the ARGV strings they arrived as, so Lua never reformats them.
 */

/** Extends a key's TTL to at least `ms` (never shortens it; a missing key stays missing). */
const EXTEND = `
local function extend(key, ms)
  local t = redis.call('PTTL', key)
  if t == -1 or (t >= 0 and t < tonumber(ms)) then redis.call('PEXPIRE', key, ms) end
end
`;

/**
 * One admission, all or nothing: the windows, then the concurrency lease, then the allowance; only when all
 * pass does it count the windows, add the lease and hold the reservation. Replies {code, count_1..count_n}
 * with each window's count before this request; code is ok | held | rpm | concurrency | allowance | load. `held`: the
 * lease is held already (the same decision attempt, retried), admitted once and not counted again. `load`
 * means the period's used counter is missing and no seed was given: the caller loads it from the ledger and
 * calls again with the seed, which is SET only if still missing (so no increment is lost or doubled).
 * The reservations summed are those of requests in flight (worst cases) and of requests released but not yet
 * counted into `used` (settled to their real units by the release script); expired ones of either kind are
 * dropped first.
 *
 * KEYS: window_1..window_n, [leases], [used, reservations, reservedUnits]
 * ARGV: 1 nowMs, 2 n, 3 window TTL s,
 *       4 hasLease, 5 concurrency limit, 6 leaseId, 7 lease expiry ms, 8 lease key TTL ms,
 *       9 hasAllowance, 10 overage, 11 allowance, 12 ceiling, 13 reserveUnits, 14 periodId, 15 seed ('' = none),
 *       16 used key TTL ms, 17..16+n window limits
 */
export const admitScript = new RedisScript('admit', `${EXTEND}
local now = ARGV[1]
local n = tonumber(ARGV[2])
local counts = {}
local full = false
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if counts[i] >= tonumber(ARGV[16 + i]) then full = true end
end
local function reply(code)
  local out = { code }
  for i = 1, n do out[i + 1] = counts[i] end
  return out
end
-- The same decision attempt again (retried on another replica): its lease is held, so it was admitted and counted.
if ARGV[4] == '1' then
  local held = redis.call('ZSCORE', KEYS[n + 1], ARGV[6])
  if held and tonumber(held) > tonumber(now) then return reply('held') end
end
if full then return reply('rpm') end

local k = n
local leaseKey = nil
if ARGV[4] == '1' then
  k = k + 1
  leaseKey = KEYS[k]
  redis.call('ZREMRANGEBYSCORE', leaseKey, '-inf', now)
  if redis.call('ZCARD', leaseKey) >= tonumber(ARGV[5]) then return reply('concurrency') end
end

local resvKey, unitsKey = nil, nil
if ARGV[9] == '1' then
  local usedKey = KEYS[k + 1]
  resvKey, unitsKey = KEYS[k + 2], KEYS[k + 3]
  local used = redis.call('GET', usedKey)
  if not used then
    if ARGV[15] == '' then return reply('load') end
    redis.call('SET', usedKey, ARGV[15], 'PX', ARGV[16])
    used = ARGV[15]
  end
  used = tonumber(used)
  local admits
  if ARGV[10] == '1' then
    local dead = redis.call('ZRANGEBYSCORE', resvKey, '-inf', now)
    if #dead > 0 then
      redis.call('HDEL', unitsKey, unpack(dead))
      redis.call('ZREMRANGEBYSCORE', resvKey, '-inf', now)
    end
    local reserved = 0
    local live = redis.call('ZRANGE', resvKey, 0, -1)
    if #live > 0 then
      local values = redis.call('HMGET', unitsKey, unpack(live))
      for i = 1, #live do
        local v = values[i]
        if v then
          local sep = string.find(v, ':', 1, true)
          if string.sub(v, sep + 1) == ARGV[14] then reserved = reserved + tonumber(string.sub(v, 1, sep - 1)) end
        end
      end
    end
    admits = used + reserved + tonumber(ARGV[13]) <= tonumber(ARGV[11]) + tonumber(ARGV[12])
  else
    admits = used < tonumber(ARGV[11])
  end
  if not admits then return reply('allowance') end
end

for i = 1, n do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
if leaseKey then
  redis.call('ZADD', leaseKey, ARGV[7], ARGV[6])
  extend(leaseKey, ARGV[8])
  if resvKey and tonumber(ARGV[13]) > 0 then
    redis.call('ZADD', resvKey, ARGV[7], ARGV[6])
    redis.call('HSET', unitsKey, ARGV[6], ARGV[13] .. ':' .. ARGV[14])
    extend(resvKey, ARGV[8])
    extend(unitsKey, ARGV[8])
  end
end
return reply('ok')
`);

/**
 * Extends the leases still held (score > now) and their reservations; drops the expired ones.
 * Replies with the ids no longer held.
 * KEYS: leases, reservations, reservedUnits
 * ARGV: 1 nowMs, 2 new expiry ms, 3 key TTL ms, 4.. leaseIds
 */
export const renewScript = new RedisScript('renew', `${EXTEND}
local now = tonumber(ARGV[1])
local gone = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score and tonumber(score) > now then
    redis.call('ZADD', KEYS[1], 'XX', ARGV[2], id)
    redis.call('ZADD', KEYS[2], 'XX', ARGV[2], id)
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[3], id)
    gone[#gone + 1] = id
  end
end
for i = 1, 3 do extend(KEYS[i], ARGV[3]) end
return gone
`);

/**
 * Count at release, in one step: frees a lease (its concurrency slot), drops its reservation, and adds a finished
 * request's units to its period's used counter unless the request's marker shows it counted already. The marker
 * holds the attempt that added, so a later attempt learns who counted (and an uncount can tell its own add).
 * When the counter is missing nothing is added and no marker is set: the caller has the row in the ledger (or in
 * its write window) before this reply is read, so the rebuild includes it, or the caller counts it after a rebuild
 * that did not. Replies {code[, holder]}: added | already, holder | missing | none.
 * Reservations that an older release settled (member `settled:<leaseId>`) are left for that release's add-used.
 * KEYS: leases, reservations, reservedUnits, used, marker
 * ARGV: 1 leaseId ('' = none), 2 units (0 = count nothing), 3 attempt, 4 marker TTL ms
 */
export const settleScript = new RedisScript('settle', `
if ARGV[1] ~= '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
end
if tonumber(ARGV[2]) <= 0 then return { 'none' } end
if redis.call('EXISTS', KEYS[4]) == 0 then return { 'missing' } end
local held = redis.call('GET', KEYS[5])
if held then return { 'already', held } end
redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[4])
redis.call('INCRBY', KEYS[4], ARGV[2])
return { 'added' }
`);

/**
 * Takes back one attempt's add (a duplicate report, counted again after its marker was lost): only while the marker
 * still names that attempt, so only an add that went to the counter held now is taken back. The marker then stays,
 * naming nobody's add, so it cannot be taken back twice.
 * KEYS: used, marker. ARGV: 1 attempt, 2 units
 */
export const uncountScript = new RedisScript('uncount', `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], '1', 'KEEPTTL')
return 1
`);

/**
 * Registers a rebuild of a used counter before its ledger read: its token joins the period's `rebuilding` set.
 * KEYS: rebuilding. ARGV: 1 token, 2 set TTL ms
 */
export const beginRebuildScript = new RedisScript('begin-rebuild', `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/**
 * Rebuilds a missing used counter from the ledger's figure, only if still missing, and then marks each uncounted
 * row the figure includes as counted by the rebuild (holder 1), so their own count attempts add nothing. Replies 1
 * when this rebuild was stored, 0 when another was there first (its figure stands, these rows stay uncounted), -1
 * when its token is gone though the counter is missing: another rebuild was stored after this one began and lost
 * since (a flush), with the counts made into it meanwhile, which this figure, read before, may lack; read again.
 * KEYS: used, rebuilding, marker_1..marker_n. ARGV: 1 seed, 2 used TTL ms, 3 marker TTL ms, 4 token
 */
export const rebuildUsedScript = new RedisScript('rebuild-used', `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[4]) == 0 then return -1 end
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 3, #KEYS do redis.call('SET', KEYS[i], '1', 'PX', ARGV[3]) end
return 1
`);
