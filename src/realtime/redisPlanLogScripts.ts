// The Lua scripts of the Redis plan log (redisPlanLog.ts). Each runs atomically in Redis, so the
// fencing check, the offset, the history entry and the live publication of a message cannot be
// interleaved with another writer's (README, "Several instances (PostgreSQL + Redis)"; Centrifugo's
// broker_history_add_stream.lua is the model).
//
// meta (a hash): epoch; s, the top offset; run, the run of the epoch (0: none); fence, the newest
// attempt of that run that wrote; closed, the newest run that ended. log: a stream whose entry ids
// are `<offset>-0`, fields e (epoch), m (member id), d (destination), b (body), t (when, ms by
// Redis' clock: what a subscription made while Redis was away is owed once it is back).

/**
 * KEYS: meta, log. ARGV: channel, a fresh epoch (used only when one starts), has a run (0/1), run,
 * attempt, terminal (0/1), history size, ttl seconds, member id, destination, body, restart (0/1:
 * an earlier append of this writer failed, so the message may be missing from the log: start a new
 * epoch, keeping the fencing state, once the fencing checks pass).
 * Returns {1, epoch, offset}, or {0, 'fenced' | 'closed'}. The live message is published as
 * `<epoch>:<offset>:<member id>:<destination>` LF `<body>`.
 */
export const APPEND_SCRIPT = `
local meta, log = KEYS[1], KEYS[2]
local hasRun, run, attempt = ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local epoch = redis.call('HGET', meta, 'epoch')
local function startEpoch(epochRun, fence, closed)
  epoch = ARGV[2]
  redis.call('DEL', log)
  redis.call('HSET', meta, 'epoch', epoch, 's', 0, 'run', epochRun, 'fence', fence, 'closed', closed)
end
local restart = ARGV[12] == '1'
if not epoch then
  if hasRun then startEpoch(run, attempt, 0) else startEpoch(0, 0, 0) end
  restart = false
end
if hasRun then
  local current = tonumber(redis.call('HGET', meta, 'run'))
  local fence = tonumber(redis.call('HGET', meta, 'fence'))
  local closed = tonumber(redis.call('HGET', meta, 'closed'))
  if run <= closed then return {0, 'closed'} end
  if run < current or (run == current and attempt < fence) then return {0, 'fenced'} end
  if run > current then
    startEpoch(run, attempt, closed)
    restart = false
  end
  redis.call('HSET', meta, 'fence', attempt)
  if ARGV[6] == '1' then redis.call('HSET', meta, 'closed', run) end
end
if restart then
  startEpoch(tonumber(redis.call('HGET', meta, 'run')), tonumber(redis.call('HGET', meta, 'fence')), tonumber(redis.call('HGET', meta, 'closed')))
end
local offset = redis.call('HINCRBY', meta, 's', 1)
local now = redis.call('TIME')
local at = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('XADD', log, 'MAXLEN', ARGV[7], offset .. '-0', 'e', epoch, 'm', ARGV[9], 'd', ARGV[10], 'b', ARGV[11], 't', string.format('%d', at))
redis.call('EXPIRE', log, ARGV[8])
redis.call('EXPIRE', meta, ARGV[8])
redis.call('PUBLISH', ARGV[1], epoch .. ':' .. offset .. ':' .. ARGV[9] .. ':' .. ARGV[10] .. '\\n' .. ARGV[11])
return {1, epoch, offset}
`;

/** KEYS: meta. ARGV: run, a fresh epoch (when the log has none), ttl seconds. Nothing of runs up to `run` is taken after it. */
export const CLOSE_RUN_SCRIPT = `
local meta = KEYS[1]
local run = tonumber(ARGV[1])
if not redis.call('HGET', meta, 'epoch') then
  redis.call('HSET', meta, 'epoch', ARGV[2], 's', 0, 'run', 0, 'fence', 0, 'closed', run)
elseif tonumber(redis.call('HGET', meta, 'closed')) < run then
  redis.call('HSET', meta, 'closed', run)
end
redis.call('EXPIRE', meta, ARGV[3])
return 1
`;
