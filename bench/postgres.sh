#!/usr/bin/env bash
# The scale-out benchmark of issue 6: list-markets throughput of one and of two `serve` nodes on
# one PostgreSQL and one Redis, at N synthetic markets (default 1,000,000), driven by wrk at a
# stated concurrency spread over the nodes.
#
# Usage: bench/postgres.sh [MARKETS] [SECONDS] [CONCURRENCY]     (defaults: 1000000, 10, 32)
# Needs: PostgreSQL and Redis (scripts/services starts them), wrk, curl, python3. The catalogue
# is copied from the SQLite store of bench/run.sh (seeded first if missing) into a database
# named after it (bench/lib/stores.sh), which is kept for later runs.
#
# Every node, PostgreSQL, Redis and wrk share this machine's cores: the figures show what a
# second node costs and gives on one machine, not what two machines would do.
set -euo pipefail
markets=${1:-1000000}
duration=${2:-10}
concurrency=${3:-32}
seed=${MARKETLENS_BENCH_SEED:-1}
cd "$(dirname "$0")/.."

while IFS='=' read -r name value; do
  export "$name=$value"
done < <(scripts/services)
command -v wrk >/dev/null || { echo "bench: wrk is missing (bench/run.sh installs it)" >&2; exit 1; }
cargo build --release --quiet --bin marketlens
bin=target/release/marketlens
export RUST_LOG=warn MARKETLENS_TIER_LIMITS="bench=1000000000"

. bench/lib/stores.sh
sqlite_store=$(synthetic_store "$bin" "$markets" "$seed")
MARKETLENS_DATABASE_URL=$(postgres_copy "$bin" "$sqlite_store" "${MARKETLENS_TEST_DATABASE_URL%/*}")
export MARKETLENS_DATABASE_URL
key=$("$bin" accounts create --tier bench --credits 1000000000 --label bench | awk '/^api key/ {print $3}')

servers=()
cleanup() { for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done; }
trap cleanup EXIT
start_node() { # port
  "$bin" serve --no-sync --bind "127.0.0.1:$1" --redis-url "$MARKETLENS_TEST_REDIS_URL" &
  servers+=($!)
  until curl -sf "http://127.0.0.1:$1/readyz" | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["catalog"]["inMemory"] else 1)' 2>/dev/null; do
    sleep 0.5
  done
}
measure() { # port connections: prints "rps p50 p99 non2xx"
  wrk -t1 -c"$2" -d"${duration}s" --latency -H "Authorization: Bearer $key" "http://127.0.0.1:$1/api/v1/markets" |
    python3 -c '
import re, sys
text = sys.stdin.read()
def ms(label):
    value, unit = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
    return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)
errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
print("%.0f %.2f %.2f %s" % (float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)), ms("50"), ms("99"), errors.group(1) if errors else "0"))
'
}

start_node 18191
read -r one_rps one_p50 one_p99 one_errors < <(measure 18191 "$concurrency")
start_node 18192
half=$((concurrency / 2))
measure 18191 "$half" >"target/bench/node1.txt" &
first=$!
measure 18192 "$half" >"target/bench/node2.txt"
wait "$first"
read -r a_rps a_p50 a_p99 a_errors <"target/bench/node1.txt"
read -r b_rps b_p50 b_p99 b_errors <"target/bench/node2.txt"

echo
echo "Marketlens on PostgreSQL: $markets synthetic markets, list markets (default parameters), wrk with $concurrency connections for ${duration}s, $(nproc) cores shared by the nodes, PostgreSQL, Redis and wrk."
echo
echo "| nodes | req/s | p50 ms | p99 ms | non-2xx |"
echo "|---|---:|---:|---:|---:|"
echo "| 1 | $one_rps | $one_p50 | $one_p99 | $one_errors |"
echo "| 2 | $((a_rps + b_rps)) ($a_rps + $b_rps) | $a_p50 / $b_p50 | $a_p99 / $b_p99 | $((a_errors + b_errors)) |"
