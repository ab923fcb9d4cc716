// The Lua scripts of the Redis plan log (redisPlanLog.ts). Each runs atomically in Redis, so the
// fencing check, the offset, the history entry and the live publication of a message cannot be
// interleaved with another writer's (docs/operations.md, "Several instances (PostgreSQL + Redis)"; Centrifugo's
// broker_history_add_stream.lua is the model).
//
// meta (a hash): epoch; s, the top offset; run, the run of the epoch (0: none); fence, the newest
// attempt of that run that wrote; closed, the newest run that ended; restarted, the last failed
// append of an instance that made the log begin a new epoch; lostAt, when a failed append was
// recorded (ms by Redis' clock: an instance that was away then learns of it when it is back). A meta without an epoch (a run closed
// in a log that had none, or lost) has no messages: the next append begins one. log: a stream whose
// entry ids are `<offset>-0`, fields e (epoch), m (member id), d (destination), b (body), t (when,
// ms by Redis' clock: what a subscription made while Redis was away is owed once it is back).
//
// An epoch starts at offset 1 only when the appender says nothing before it is missing (`fresh`,
// epochStarts.ts); otherwise it starts at 2, so that a subscriber sees that its start is lost. A
// later attempt of a run (a takeover) begins a new epoch past 1 too: what the attempt before had in
// flight when it stopped may never have been appended.

/** What RESTART_SCRIPT publishes on a log's channel: messages of the log were lost. */
export const LOST_NOTICE = '!lost';

/**
 * KEYS: meta, log. ARGV: channel, a fresh epoch (used only when one starts), has a run (0/1), run,
 * attempt, terminal (0/1), history size, ttl seconds, member id, destination, body, how an epoch
 * this append begins starts (`fresh`: at offset 1; else past it), and a failed append of this
 * writer's instance that this one restarts the log for ('' for none: else, unless that failure
 * already restarted it, a new epoch begins past offset 1, keeping the fencing state, once the
 * fencing checks pass).
 * Returns {1, epoch, offset}, or {0, 'fenced' | 'closed'}. The live message is published as
 * `<epoch>:<offset>:<member id>:<destination>` LF `<body>`.
 */
export const APPEND_SCRIPT = `
local meta, log = KEYS[1], KEYS[2]
local hasRun, run, attempt = ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local loss = ARGV[13]
local fresh = ARGV[12] == 'fresh' and loss == ''
local state = redis.call('HMGET', meta, 'epoch', 'run', 'fence', 'closed', 'restarted')
local epoch = state[1]
local current, fence, closed = tonumber(state[2] or '0'), tonumber(state[3] or '0'), tonumber(state[4] or '0')
local function startEpoch(epochRun, epochFence)
  epoch = ARGV[2]
  redis.call('DEL', log)
  redis.call('HSET', meta, 'epoch', epoch, 's', fresh and 0 or 1, 'run', epochRun, 'fence', epochFence, 'closed', closed)
end
if hasRun then
  if run <= closed then return {0, 'closed'} end
  if epoch and (run < current or (run == current and attempt < fence)) then return {0, 'fenced'} end
end
if not epoch or (hasRun and run > current) then
  if hasRun then startEpoch(run, attempt) else startEpoch(0, 0) end
elseif hasRun and attempt > fence then
  fresh = false
  startEpoch(current, attempt)
elseif loss ~= '' and state[5] ~= loss then
  startEpoch(current, fence)
end
if loss ~= '' then redis.call('HSET', meta, 'restarted', loss) end
if hasRun then
  redis.call('HSET', meta, 'fence', attempt)
  if ARGV[6] == '1' then redis.call('HSET', meta, 'closed', run) end
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

/** KEYS: meta. ARGV: run, ttl seconds. Nothing of runs up to `run` is taken after it; an epoch is begun only by an append. */
export const CLOSE_RUN_SCRIPT = `
local meta = KEYS[1]
local run = tonumber(ARGV[1])
if tonumber(redis.call('HGET', meta, 'closed') or '0') < run then redis.call('HSET', meta, 'closed', run) end
redis.call('EXPIRE', meta, ARGV[2])
return 1
`;

/**
 * KEYS: meta, log. ARGV: a fresh epoch, a failed append of an instance, the log's channel, ttl
 * seconds. Unless that failure already restarted it, a log that has an epoch begins a new one, past
 * offset 1 and with nothing retained, keeping the fencing state: whoever resumes from the old epoch
 * learns that a message may be missing. Either way the loss is recorded (lostAt, ms by Redis' clock)
 * and announced on the channel as `!lost`: the lost message may have been a run's last, after which
 * no message would show the loss to the instances that follow the log. Returns 1 when it recorded it.
 */
export const RESTART_SCRIPT = `
local meta, log = KEYS[1], KEYS[2]
local state = redis.call('HMGET', meta, 'epoch', 'restarted')
if state[2] == ARGV[2] then return 0 end
if state[1] then
  redis.call('DEL', log)
  redis.call('HSET', meta, 'epoch', ARGV[1], 's', 1)
end
local now = redis.call('TIME')
redis.call('HSET', meta, 'restarted', ARGV[2], 'lostAt', string.format('%d', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
redis.call('EXPIRE', meta, ARGV[4])
redis.call('PUBLISH', ARGV[3], '${LOST_NOTICE}')
return 1
`;
