#!/usr/bin/env bash
# The benchmark of issue 7: every call of the API over N synthetic markets (default 1,000,000)
# on SQLite, driven by wrk at a stated concurrency, with the server's peak memory and, for
# each call, its throughput as a share of the ceiling: a constant response of the size of a
# default list page served by the same server with no work (GET /benchmark/ceiling).
#
# Usage: bench/run.sh [MARKETS] [SECONDS] [CONCURRENCY]     (defaults: 1000000, 10, 32)
# MARKETLENS_BENCH_ARTICLES (default 100000) news articles are stored beside the markets, so
# that explain searches a full news index; the server counts them all as recent.
# MARKETLENS_BENCH_HISTORY (default 1000) markets get a year of price history as the default
# retention keeps it (`seed --history`), the most a market holds; the script reports its bytes per bar.
# MARKETLENS_BENCH_PROFILE (default release) is the cargo profile the server is built with.
# Needs: wrk (installed from Debian's packages if missing), curl, python3.
#
# The seeded store is kept in target/bench/ and reused by later runs of the same size. wrk and
# the server share this machine's cores, so every figure is a floor for the server alone.
set -euo pipefail
markets=${1:-1000000}
duration=${2:-10}
concurrency=${3:-32}
seed=${MARKETLENS_BENCH_SEED:-1}
articles=${MARKETLENS_BENCH_ARTICLES:-100000}
history=${MARKETLENS_BENCH_HISTORY:-1000}
port=${MARKETLENS_BENCH_PORT:-18090}
cd "$(dirname "$0")/.."
. bench/lib/wrk.sh

if ! command -v wrk >/dev/null; then
  echo "bench: installing wrk from Debian's packages" >&2
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
# MARKETLENS_BENCH_PROFILE=dev runs the debug build instead (CI does: its figures mean nothing
# there, and it spares CI a release build of the whole workspace).
profile=${MARKETLENS_BENCH_PROFILE:-release}
cargo build --locked --profile "$profile" --quiet --bin marketlens
if [ "$profile" = dev ]; then bin=target/debug/marketlens; else bin="target/$profile/marketlens"; fi
. bench/lib/stores.sh
store=$(synthetic_store "$bin" "$markets" "$seed")
export MARKETLENS_DATABASE_URL="sqlite://$store"
export MARKETLENS_TIER_LIMITS="bench=1000000000"
export RUST_LOG=warn
if [ ! -f "$store.articles-$articles" ]; then
  "$bin" seed --articles "$articles" --seed "$seed"
  touch "$store.articles-$articles"
fi
# The price history's bytes per bar, from SQLite's own page accounting (dbstat).
history_bytes() {
  python3 - "$store" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
size = db.execute("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN ('price_history', 'price_history_by_age')").fetchone()[0]
rows = db.execute("SELECT COUNT(*) FROM price_history").fetchone()[0]
print(size, rows)
PY
}
if [ ! -f "$store.history-$history" ]; then
  read -r bytes_before bars_before < <(history_bytes)
  "$bin" seed --history "$history" --seed "$seed"
  read -r bytes_after bars_after < <(history_bytes)
  echo "$(( (bytes_after - bytes_before) / (bars_after - bars_before) )) $((bars_after - bars_before))" >"$store.history-$history"
fi
read -r bytes_per_bar history_bars <"$store.history-$history"
read -r _ all_bars < <(history_bytes)
key=$("$bin" accounts create --tier bench --credits 1000000000 --label bench | awk '/^api key/ {print $3}')

workdir=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT
"$bin" serve --no-sync --benchmark --news-window-days 36525 --bind "127.0.0.1:$port" &
server=$!
base="http://127.0.0.1:$port"
started=$(date +%s.%N)
until curl -sf "$base/readyz" | BENCH_ARTICLES=$articles python3 -c 'import json, os, sys; r = json.load(sys.stdin); news = r["news"]["articlesInMemory"] >= min(1, int(os.environ["BENCH_ARTICLES"])); sys.exit(0 if r["catalog"]["inMemory"] and news else 1)' 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { echo "bench: the server stopped" >&2; exit 1; }
  sleep 0.5
done
loaded=$(python3 -c "print(round($(date +%s.%N) - $started, 1))")

auth="Authorization: Bearer $key"
api() { curl -sf -H "$auth" "$base$1"; }
# Random ids of markets and events, and explain queries, for the calls that take one.
python3 - "$base" "$key" "$workdir" <<'PY'
import json, random, sys, urllib.request
base, key, workdir = sys.argv[1:4]
def get(path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + key})
    return json.load(urllib.request.urlopen(request))
random.seed(7)
for kind, limit in (("markets", 200), ("events", 100)):
    total = get(f"/api/v1/{kind}?limit=1")["pagination"]["total"]
    ids = set()
    for _ in range(10):
        offset = random.randrange(max(total - limit, 1))
        ids.update(item["id"] for item in get(f"/api/v1/{kind}?limit={limit}&offset={offset}")["data"])
    open(f"{workdir}/{kind}.txt", "w").write("\n".join(sorted(ids)) + "\n")
questions = [item["question"] for item in get("/api/v1/markets?limit=200&sortBy=volume")["data"]]
queries = []
for question in questions[:50]:
    words = [word.strip("?,.").lower() for word in question.split() if len(word) > 3][:3]
    if words:
        queries.append(urllib.parse.quote(" ".join(words)))
open(f"{workdir}/queries.txt", "w").write("\n".join(queries) + "\n")
# A rare word: the word of the sampled questions that the fewest markets hold.
rare, fewest = None, None
for question in questions[50:120]:
    for word in question.split():
        word = word.strip("?,.'\"()$").lower()
        if len(word) > 4 and word.isalpha():
            word = urllib.parse.quote(word)
            total = get(f"/api/v1/markets?limit=1&search={word}")["pagination"]["total"]
            if total and (fewest is None or total < fewest):
                rare, fewest = word, total
open(f"{workdir}/rare.txt", "w").write(rare or "will")
PY
# The markets `seed --history` gave a year of history: the first by id.
python3 - "$store" "$history" "$workdir" <<'PY'
import datetime, sqlite3, sys
store, count, workdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ids = [row[0] for row in sqlite3.connect(store).execute("SELECT id FROM markets ORDER BY id LIMIT ?", (count,))]
day_ago = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
for name, suffix in (("hourly", "/history?interval=1h"), ("daily", "/history?interval=1d&limit=1000"),
                     ("fine", f"/history?interval=5m&from={day_ago}&limit=1000")):
    open(f"{workdir}/history-{name}.txt", "w").write("".join(f"{id}{suffix}\n" for id in ids))
PY
rare=$(cat "$workdir/rare.txt")
page_bytes=$(api "/api/v1/markets" | wc -c)

measure() { # name path [items-file]: prints "name|rps|p50|p99|errors"
  wrk_measure "$1" "$base$2" "${3:-}" "$concurrency" "$duration" "$auth"
}

ceiling=$(measure "ceiling: constant $page_bytes-byte body, no work" "/benchmark/ceiling?bytes=$page_bytes")
results=("$ceiling")
for sort in volume volume24h liquidity createdAt; do
  for order in desc asc; do
    results+=("$(measure "list: exchange+status+category, $sort $order" "/api/v1/markets?exchange=POLYMARKET&status=OPEN&category=politics&sortBy=$sort&sortOrder=$order")")
  done
done
results=(
  "${results[0]}"
  "$(measure "list markets (default)" "/api/v1/markets")"
  "$(measure "list markets include=outcomes limit=200" "/api/v1/markets?include=outcomes&limit=200")"
  "${results[@]:1}"
  "$(measure "list markets offset=100000" "/api/v1/markets?offset=100000")"
  "$(measure "search: common word (will)" "/api/v1/markets?search=will")"
  "$(measure "search: rare word ($rare)" "/api/v1/markets?search=$rare")"
  "$(measure "search: three words (will trump win)" "/api/v1/markets?search=will%20trump%20win")"
  "$(measure "get market (random ids, with matches)" "/api/v1/markets/" "$workdir/markets.txt")"
  "$(measure "list events" "/api/v1/events")"
  "$(measure "get event (random ids)" "/api/v1/events/" "$workdir/events.txt")"
  "$(measure "explain by keyword (50 queries)" "/api/v1/explain?query=" "$workdir/queries.txt")"
  "$(measure "history: 1h candles, first page of a year (random of $history markets)" "/api/v1/markets/" "$workdir/history-hourly.txt")"
  "$(measure "history: 1d candles, a whole year" "/api/v1/markets/" "$workdir/history-daily.txt")"
  "$(measure "history: 5m candles, the last day" "/api/v1/markets/" "$workdir/history-fine.txt")"
  "$(measure "spreads (default: by spread)" "/api/v1/spreads")"
  "$(measure "spreads by volume24h, minSimilarity=0.8" "/api/v1/spreads?sortBy=volume24h&minSimilarity=0.8")"
  "$(measure "account" "/api/v1/account")"
)
peak_kib=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")

ceiling_rps=$(echo "$ceiling" | cut -d'|' -f2)
echo
echo "Marketlens benchmark: $markets synthetic markets and $articles news articles (seed $seed) on SQLite, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),"
echo "wrk with $concurrency connections for ${duration}s per call on the same machine; catalogue loaded in ${loaded}s; server peak memory $((peak_kib / 1024)) MiB."
echo "Price history: $all_bars bars stored; a year of it for $history markets took $history_bars bars at $bytes_per_bar bytes each (table and index, SQLite pages);"
echo "matched pairs of open markets listed by spreads: $(api "/api/v1/spreads?limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["pagination"]["total"])')."
echo
echo "| call | req/s | p50 ms | p99 ms | non-2xx | share of ceiling |"
echo "|---|---:|---:|---:|---:|---:|"
failed=0
for line in "${results[@]}"; do
  IFS='|' read -r name rps p50 p99 errors <<<"$line"
  share=$(python3 -c "print('%.0f%%' % (100 * $rps / $ceiling_rps))")
  echo "| $name | $rps | $p50 | $p99 | $errors | $share |"
  [ "$errors" = "0" ] || failed=1
done
if [ "$failed" = 1 ]; then
  echo "bench: some calls were answered with errors (non-2xx above)" >&2
  exit 1
fi
