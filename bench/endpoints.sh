#!/usr/bin/env bash
# Throughput and latency of every endpoint over the demo data (the recorded Polymarket and
# Kalshi payloads), measured with wrk against a release build of the real server.
#
# Usage: bench/endpoints.sh [CONCURRENCY] [SECONDS]     (defaults: 32 connections, 10 s)
# Needs: wrk (Debian: apt-get install wrk), curl, python3.
#
# wrk and the server share this machine's cores, so the figures are a floor for what the
# server alone could do.
set -euo pipefail
concurrency=${1:-32}
duration=${2:-10}
port=${MARKETLENS_BENCH_PORT:-18080}
cd "$(dirname "$0")/.."
. bench/lib/wrk.sh

command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
cargo build --release --quiet --bin marketlens
bin=target/release/marketlens
workdir=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT

export MARKETLENS_DATABASE_URL="sqlite://$workdir/bench.db"
export MARKETLENS_TIER_LIMITS="bench=1000000000"
export RUST_LOG=warn
"$bin" import --exchange polymarket demo-data/polymarket/gamma-*.json >/dev/null
"$bin" import --exchange kalshi demo-data/kalshi/events-*.json demo-data/kalshi/event-single-1.json \
  demo-data/kalshi/markets-*.json >/dev/null
key=$("$bin" accounts create --tier bench --credits 1000000000 | awk '/^api key/ {print $3}')
"$bin" serve --bind "127.0.0.1:$port" &
server=$!
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done

auth="Authorization: Bearer $key"
first_id() { curl -sf -H "$auth" "$base$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])'; }
market_id=$(first_id "/api/v1/markets?sortBy=volume&limit=1")
event_id=$(first_id "/api/v1/events?limit=1")

echo "Marketlens endpoints over the demo data: $(nproc) cores, wrk $concurrency connections, ${duration}s each"
printf '%-48s %10s %9s %9s %8s\n' "call" "req/s" "p50 ms" "p99 ms" "non-2xx"
run() {
  local name=$1 path=$2
  wrk -t2 -c"$concurrency" -d"${duration}s" --latency -H "$auth" "$base$path" 2>&1 | wrk_summary "$name" | wrk_row 48
}
run "list markets (default)" "/api/v1/markets"
run "list markets include=outcomes limit=200" "/api/v1/markets?include=outcomes&limit=200"
run "list markets exchange+status+category" "/api/v1/markets?exchange=KALSHI&status=OPEN&category=Sports&sortBy=liquidity"
run "list markets search (one word)" "/api/v1/markets?search=trump"
run "list markets search (three words)" "/api/v1/markets?search=win%20the%20championship"
run "get market (with matches)" "/api/v1/markets/$market_id"
run "list events" "/api/v1/events"
run "get event" "/api/v1/events/$event_id"
run "explain by keyword" "/api/v1/explain?query=fed%20chair"
run "account" "/api/v1/account"
