-- wrk script: a club evening of BENCH_TABLE_COUNT live tables at once. At each table a
-- scorer's phone saves a deal every 3 minutes through the deal page (GET the form, POST it,
-- GET the sheet the 302 points to) and three followers poll the sheet every 10 s with the
-- ETag of their last answer (a 304 unless the game changed since). That is 57 requests per
-- table every 180 s; each wrk thread plays its share of the tables and sends at its share of
-- the rate BENCH_RATE (requests/s), with random (exponential) gaps, as independent tables do.
--
-- Run it with one connection per thread (-t N -c N): a thread's answers then come in the
-- order of its requests, so response() knows which follower an ETag is for.
--
-- BENCH_TABLES names a file of lines "<game id> <scorer cookie> [<etag>]"; table t plays
-- game t modulo their number. BENCH_SESSION, BENCH_FORM and BENCH_NONCE are
-- as in deal_page_save.lua. done() writes each game's last ETag to BENCH_ETAGS_OUT, so the
-- next run's followers start where these left off.
local ffi = require("ffi")
ffi.cdef([[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *now);
]])
local CLOCK_MONOTONIC = 1
local timespec = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

-- A table's 57 steps: 54 polls (three followers in turn: one every ~10 s each), then the
-- scorer's form, save and sheet.
local STEPS = 57
local POLLS = 54
local FOLLOWERS = 3

local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
  thread:set("thread_index", #threads)
end

local tables = {}    -- this thread's tables: its game's requests, and its phase
local follower = {}  -- the ETag each of this thread's followers holds, by table*3+follower
seen = {}            -- each game's last ETag this thread saw (read by done())
local next_table = 1
local round = 0
local counter = 0
local gap_ms = 1000
local next_at = 0
local last = nil     -- what the request in flight was: a follower's index, or nil
local scheduled = 0  -- when the request in flight was due
-- Each answer's time from when its request was due, not from when it was sent: a server
-- that falls behind the pace delays the next requests, and their wait counts.
latencies = {}

-- A game's four requests, made once (a save's nonce goes between the two parts of ``save``).
local function prepare(id, scorer, session, body, filler)
  local sheet = "/games/" .. id
  local cookies = session .. "; scorer=" .. scorer
  local accept = "gzip, br"
  local poll = wrk.format("GET", sheet, {
    ["Accept-Encoding"] = accept,
    ["Cookie"] = session,
    ["HX-Request"] = "true",
    ["HX-Target"] = "sheet-live",
    ["HX-Trigger"] = "sheet-live",
  })
  local save = wrk.format("POST", sheet .. "/deals/new", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Accept-Encoding"] = accept,
    ["Cookie"] = cookies,
  }, body)
  local at = save:find("nonce=" .. filler, 1, true) + #"nonce="
  return {
    id = id,
    -- Without its blank line: If-None-Match goes last.
    poll = poll:sub(1, #poll - 2),
    form = wrk.format("GET", sheet .. "/deals/new", {
      ["Accept-Encoding"] = accept, ["Cookie"] = cookies,
    }),
    save = { save:sub(1, at - 1), save:sub(at + #filler) },
    sheet = wrk.format("GET", sheet, { ["Accept-Encoding"] = accept, ["Cookie"] = cookies }),
  }
end

function init(args)
  local index = thread_index or 1
  local count = tonumber(os.getenv("BENCH_THREADS"))
  local table_count = tonumber(os.getenv("BENCH_TABLE_COUNT"))
  local rate = tonumber(os.getenv("BENCH_RATE"))
  local session = "session=" .. os.getenv("BENCH_SESSION")
  prefix = os.getenv("BENCH_NONCE") .. string.format("t%03d", index)
  local filler = string.rep("x", #prefix + 9)
  local body = os.getenv("BENCH_FORM"):gsub("NONCE_SLOT", filler)
  local lines = {}
  for line in io.lines(os.getenv("BENCH_TABLES")) do
    local id, scorer, etag = line:match("^(%S+)%s+(%S+)%s*(.-)%s*$")
    if id then
      lines[#lines + 1] = { id, scorer, etag ~= "" and etag or nil }
    end
  end
  -- Only this thread's tables' games: a thread of many does not build every game's requests.
  local games = {}
  math.randomseed(index * 7919 + tonumber(os.getenv("BENCH_SEED") or "0"))
  for t = index - 1, table_count - 1, count do
    local number = t % #lines + 1
    local id, scorer, etag = unpack(lines[number])
    games[number] = games[number] or prepare(id, scorer, session, body, filler)
    local slot = #tables
    tables[slot + 1] = { game = games[number], phase = math.random(0, STEPS - 1) }
    for f = 0, FOLLOWERS - 1 do
      follower[slot * FOLLOWERS + f] = etag
    end
  end
  gap_ms = 1000 * count / rate
  next_at = now_ms() + math.random() * gap_ms
end

function delay()
  scheduled = next_at
  local wait = next_at - now_ms()
  next_at = next_at - gap_ms * math.log(1 - math.random())
  return wait > 0 and math.floor(wait) or 0
end

function request()
  local slot = next_table - 1
  local at = tables[next_table]
  next_table = next_table + 1
  if next_table > #tables then
    next_table = 1
    round = round + 1
  end
  local game = at.game
  local step = (round + at.phase) % STEPS
  last = nil
  if step < POLLS then
    last = slot * FOLLOWERS + step % FOLLOWERS
    local etag = follower[last]
    if etag then
      return game.poll .. "If-None-Match: " .. etag .. "\r\n\r\n"
    end
    return game.poll .. "\r\n"
  elseif step == POLLS then
    return game.form
  elseif step == POLLS + 1 then
    counter = counter + 1
    return game.save[1] .. prefix .. string.format("%09d", counter) .. game.save[2]
  end
  return game.sheet
end

function response(status, headers, body)
  latencies[#latencies + 1] = now_ms() - scheduled
  if last == nil or (status ~= 200 and status ~= 304) then
    return
  end
  for name, value in pairs(headers) do
    if name:lower() == "etag" then
      follower[last] = value
      seen[tables[math.floor(last / FOLLOWERS) + 1].game.id] = value
      return
    end
  end
end

-- Writes each game's last ETag to BENCH_ETAGS_OUT, and the latencies from when each request
-- was due, their 50th and 99th percentiles in milliseconds and their count, to
-- BENCH_LATENCY_OUT.
function done(summary, latency, requests)
  local file = assert(io.open(os.getenv("BENCH_ETAGS_OUT"), "w"))
  local all = {}
  for _, thread in ipairs(threads) do
    for id, etag in pairs(thread:get("seen")) do
      file:write(id, " ", etag, "\n")
    end
    for _, took in ipairs(thread:get("latencies")) do
      all[#all + 1] = took
    end
  end
  file:close()
  table.sort(all)
  local function percentile(p)
    return #all > 0 and all[math.max(1, math.ceil(#all * p))] or 0
  end
  file = assert(io.open(os.getenv("BENCH_LATENCY_OUT"), "w"))
  file:write(string.format("%.3f %.3f %d\n", percentile(0.5), percentile(0.99), #all))
  file:close()
end
