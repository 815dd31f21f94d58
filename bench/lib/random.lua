-- wrk script of the benchmarks' calls that take one item (an id, a query) per request: each
-- request is BENCH_PREFIX followed by a line of the file BENCH_ITEMS, drawn at random (the same
-- draws every run).
local items = {}
for line in io.lines(os.getenv("BENCH_ITEMS")) do items[#items + 1] = line end
local prefix = os.getenv("BENCH_PREFIX")
math.randomseed(7)
request = function()
  return wrk.format("GET", prefix .. items[math.random(#items)])
end
