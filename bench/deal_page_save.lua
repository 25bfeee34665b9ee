-- wrk script: a scorer's phone saves a deal from the deal page (POST /games/<id>/deals/new),
-- round robin over open games. BENCH_GAMES names a file of lines "<game id> <scorer cookie>";
-- BENCH_SESSION is the session cookie whose CSRF token is in BENCH_FORM, the form as
-- bench.py's deal_form() writes it with NONCE_SLOT for the nonce; BENCH_NONCE is new for
-- every wrk run. The app answers 302 (wrk follows no redirect).
-- The deal: nobody went out, each side melded 150 and holds 10: valid at every minimum, and
-- it never ends a game.
local games = {}
local next_game = 1
local counter = 0

-- Each request is built once; only its nonce (a fixed width, so Content-Length holds) changes.
local PLACEHOLDER = "NONCE_SLOT"  -- bench.py's NONCE_SLOT in BENCH_FORM

local thread_counter = 0
function setup(thread)
  thread_counter = thread_counter + 1
  thread:set("offset", thread_counter)
end

function init(args)
  prefix = os.getenv("BENCH_NONCE") .. string.format("t%02d", offset or 0)
  -- The nonce's width: prefix, then a 9-digit counter.
  local body = os.getenv("BENCH_FORM"):gsub(PLACEHOLDER, string.rep("x", #prefix + 9))
  local session = os.getenv("BENCH_SESSION")
  for line in io.lines(os.getenv("BENCH_GAMES")) do
    local id, scorer = line:match("^(%S+)%s+(%S+)")
    if id then
      local request = wrk.format("POST", "/games/" .. id .. "/deals/new", {
        ["Content-Type"] = "application/x-www-form-urlencoded",
        ["Accept-Encoding"] = "gzip, br",
        ["Cookie"] = "session=" .. session .. "; scorer=" .. scorer,
      }, body)
      local at = request:find("nonce=", 1, true) + #"nonce="
      games[#games + 1] = { request:sub(1, at - 1), request:sub(at + #prefix + 9) }
    end
  end
  next_game = ((offset or 1) * 7) % #games + 1
end

function request()
  local parts = games[next_game]
  next_game = next_game % #games + 1
  counter = counter + 1
  return parts[1] .. prefix .. string.format("%09d", counter) .. parts[2]
end
