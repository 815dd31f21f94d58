#!/usr/bin/env bash
# Latency of the order book and trades calls at CONCURRENCY connections, release build, wrk:
# `serve` fetching from the replay server (the recordings of demo-data/depth/ over loopback,
# as a live node fetches from the exchanges) with the default shared cache (2 s) and with none
# (every call waits for a fetch, concurrent callers of one book sharing it), then `demo`
# serving the recordings from memory.
#
# Usage: bench/depth.sh [CONCURRENCY] [SECONDS]     (defaults: 32 connections, 10 s)
# Needs: wrk (Debian: apt-get install wrk), curl, python3.
set -euo pipefail
concurrency=${1:-32}
duration=${2:-10}
port=${MARKETLENS_BENCH_PORT:-18080}
replay_port=${MARKETLENS_BENCH_REPLAY_PORT:-18090}
cd "$(dirname "$0")/.."
. bench/lib/wrk.sh

command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
cargo build --release --quiet --bin marketlens --bin marketlens-replay
bin=target/release/marketlens
workdir=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$workdir"; }
trap cleanup EXIT

target/release/marketlens-replay --port "$replay_port" > "$workdir/replay.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do grep -q "Data API" "$workdir/replay.log" 2>/dev/null && break; sleep 0.1; done

export MARKETLENS_DATABASE_URL="sqlite://$workdir/bench.db"
export MARKETLENS_TIER_LIMITS="bench=1000000000"
export RUST_LOG=warn
"$bin" import --exchange polymarket demo-data/polymarket/gamma-markets-1.json >/dev/null
"$bin" import --exchange kalshi demo-data/kalshi/event-single-1.json demo-data/kalshi/markets-1.json >/dev/null
key=$("$bin" accounts create --tier bench --credits 1000000000 | awk '/^api key/ {print $3}')
auth="Authorization: Bearer $key"

wait_for() { for _ in $(seq 200); do curl -sf "$1/healthz" >/dev/null && return; sleep 0.1; done; }
id_of() {
  curl -sf -H "$auth" "$1/api/v1/markets?externalMarketId=$2" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])'
}
run() {
  local name=$1 url=$2
  wrk -t2 -c"$concurrency" -d"${duration}s" --latency -H "$auth" "$url" 2>&1 | wrk_summary "$name" | wrk_row 52
}
upstream="http://127.0.0.1:$replay_port"
serve() {
  "$bin" serve --no-sync --bind "127.0.0.1:$port" \
    --polymarket-url "$upstream/polymarket" --kalshi-url "$upstream/kalshi/trade-api/v2" \
    --polymarket-clob-url "$upstream/polymarket-clob" --polymarket-data-url "$upstream/polymarket-data" \
    --depth-rps 1000 "$@" &
  pids+=($!)
  wait_for "http://127.0.0.1:$port"
}

echo "Marketlens order books and trades: $(nproc) cores, wrk $concurrency connections, ${duration}s each"
printf '%-52s %10s %9s %9s %8s\n' "call" "req/s" "p50 ms" "p99 ms" "non-2xx"
base="http://127.0.0.1:$port"
for cache in 2000 0; do
  serve --depth-cache-ms "$cache"
  kalshi=$(id_of "$base" KXELONMARS-99)
  polymarket=$(id_of "$base" 559687)
  duke=$(id_of "$base" KXMARMAD-26-DUKE)
  ariz=$(id_of "$base" KXMARMAD-26-ARIZ)
  run "rest, cache ${cache} ms: Kalshi book" "$base/api/v1/markets/$kalshi/orderbook"
  run "rest, cache ${cache} ms: Polymarket book" "$base/api/v1/markets/$polymarket/orderbook"
  run "rest, cache ${cache} ms: 4 books in one call" "$base/api/v1/orderbooks?ids=$kalshi,$polymarket,$duke,$ariz"
  run "rest, cache ${cache} ms: Kalshi trades (limit 50)" "$base/api/v1/markets/$kalshi/trades"
  # How many upstream fetches all those calls made (each shared by the callers waiting on it).
  curl -sf "$base/metrics" | python3 -c '
import re, sys
text = sys.stdin.read()
fetches = sum(float(n) for n in re.findall(r"^marketlens_depth_fetches_total\{[^}]*\} ([\d.e+]+)$", text, re.M))
calls = sum(float(n) for n in re.findall(r"^marketlens_http_requests_total\{[^}]*route=\"/api/v1/(?:markets/\{id\}/(?:orderbook|trades)|orderbooks)\"[^}]*\} ([\d.e+]+)$", text, re.M))
print("  upstream fetches: %d for %d calls" % (fetches, calls))
'
  kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'
done

# The demo over the same store (it loads nothing into a store that holds markets); the bench
# key's account has the credits and the limit the demo account lacks.
"$bin" demo --bind "127.0.0.1:$port" > "$workdir/demo.log" &
pids+=($!)
wait_for "$base"
run "demo recording: Kalshi book" "$base/api/v1/markets/$kalshi/orderbook"
run "demo recording: Kalshi trades" "$base/api/v1/markets/$kalshi/trades"
