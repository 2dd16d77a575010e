-- wrk: GET the URL paths of a file (one a line) in turn, each of the THREADS threads (the
-- same number as wrk's -t) from its own share of them, and stop after LIMIT requests in all
-- (0: when the duration ends). Prints one line `JSON {...}` with the totals, the latency
-- percentiles and the answers by status class.
--
--   wrk -t1 -c32 -d60s --timeout 10s -s wrk_paths.lua http://127.0.0.1:8000 -- PATHS [LIMIT [THREADS]]

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  limit = tonumber(args[2] or "0")
  -- thread k of n takes the paths k, k + n, k + 2n ...: no path is asked twice in a run
  -- shorter than the file
  step = tonumber(args[3] or "1")
  cursor = id
  sent = 0
  status_2xx, status_3xx, status_4xx, status_429, status_5xx = 0, 0, 0, 0, 0
end

function request()
  sent = sent + 1
  if limit > 0 and sent > limit / step then
    wrk.thread:stop()
  end
  local path = paths[(cursor % #paths) + 1]
  cursor = cursor + step
  return wrk.format("GET", path, {["Accept-Encoding"] = "gzip"})
end

function response(status, headers, body)
  if status >= 500 then status_5xx = status_5xx + 1
  elseif status == 429 then status_429 = status_429 + 1
  elseif status >= 400 then status_4xx = status_4xx + 1
  elseif status >= 300 then status_3xx = status_3xx + 1
  else status_2xx = status_2xx + 1 end
end

function done(summary, latency, requests)
  local totals = {status_2xx = 0, status_3xx = 0, status_4xx = 0, status_429 = 0,
                  status_5xx = 0}
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
  end
  local errors = summary.errors
  io.write(string.format(
    'JSON {"requests": %d, "seconds": %f, "p50_us": %d, "p90_us": %d, "p99_us": %d, ' ..
    '"max_us": %d, "socket_errors": %d, "timeouts": %d, "status_2xx": %d, "status_3xx": %d, ' ..
    '"status_4xx": %d, "status_429": %d, "status_5xx": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, errors.connect + errors.read + errors.write,
    errors.timeout, totals.status_2xx, totals.status_3xx, totals.status_4xx, totals.status_429,
    totals.status_5xx))
end
