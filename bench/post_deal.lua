-- wrk script: record a deal (POST /api/games/<id>/deals) in open games, round robin.
-- BENCH_GAMES names a file of lines "<game id> <token>"; each thread starts at another game,
-- so 16 connections rarely save into the same game at the same moment. The deal is RULES.md
-- section 8, cases A and B: one side went out with a natural and a mixed canasta.
local games = {}
local next_game = 1

local body = '{"results": [' ..
  '{"meld_points": 220, "natural_canastas": 1, "mixed_canastas": 1, "red_threes": 1, ' ..
  '"went_out": true, "hand_points": 10}, ' ..
  '{"meld_points": 150, "red_threes": 2, "hand_points": 85}]}'

local thread_counter = 0
function setup(thread)
  thread_counter = thread_counter + 1
  thread:set("offset", thread_counter)
end

function init(args)
  -- Each game's request is made once here: wrk spends its time sending, not building.
  for line in io.lines(os.getenv("BENCH_GAMES")) do
    local id, token = line:match("^(%S+)%s+(%S+)$")
    if id then
      games[#games + 1] = wrk.format("POST", "/api/games/" .. id .. "/deals", {
        ["Content-Type"] = "application/json",
        ["Accept-Encoding"] = "gzip, br",
        ["Authorization"] = "Bearer " .. token,
      }, body)
    end
  end
  next_game = ((offset or 1) * 7) % #games + 1
end

function request()
  local prepared = games[next_game]
  next_game = next_game % #games + 1
  return prepared
end
