#!/usr/bin/env bash
# The live stream's fan-out (issue 21): CLIENTS WebSocket clients, each subscribed to
# MARKETS_PER_CLIENT markets of the synthetic catalogue (11 markets), while a synthetic feed
# sends UPDATES price changes a second in all, spread over the markets followed. Reports the
# delay from each update's stamp (when the feed made it, as a connector stamps an exchange
# frame's arrival) to its receipt by a client, p50/p99/max, the prices delivered a second,
# sequence gaps and clients closed, and the server's resident memory per connection.
#
# Usage: bench/stream.sh [CLIENTS] [UPDATES] [MARKETS_PER_CLIENT] [SECONDS]
#        (defaults: 1000 clients, 1000 updates/s, 1 market each, 20 s)
# MARKETLENS_BENCH_PROFILE (default release) is the cargo profile both halves are built with.
# MARKETLENS_BENCH_PERF=FILE samples the server with perf (call graphs) while the clients
# measure, into FILE (`perf report -i FILE --no-children`); the profiler costs the server time,
# so compare delays from runs without it.
#
# Both halves run on this machine and share its cores (crates/api/examples/stream_load.rs), so
# every delay is a ceiling for the server alone. Each update reaches every client of its
# market: with 1 market per client, about CLIENTS / 11 clients each, so the clients receive
# about UPDATES * CLIENTS / 11 prices a second.
set -euo pipefail
clients=${1:-1000}
updates=${2:-1000}
markets_per_client=${3:-1}
duration=${4:-20}
profile=${MARKETLENS_BENCH_PROFILE:-release}
port=${MARKETLENS_BENCH_PORT:-18431}
cd "$(dirname "$0")/.."

cargo build --locked --quiet --profile "$profile" -p marketlens-api --example stream_load
directory=$([ "$profile" = dev ] && echo debug || echo "$profile")
bin=target/$directory/examples/stream_load
workdir=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$workdir"; }
trap cleanup EXIT
# Each client is a socket on both sides.
ulimit -n "$(( clients * 2 + 1024 ))" 2>/dev/null || ulimit -n "$(ulimit -Hn)"

RUST_LOG=warn "$bin" serve "$port" "$updates" > "$workdir/serve.out" 2> "$workdir/serve.log" &
server=$!
for _ in $(seq 300); do grep -q '^ready' "$workdir/serve.out" 2>/dev/null && break; sleep 0.1; done
read -r _ key markets < "$workdir/serve.out"
echo "stream: $clients clients, $markets_per_client market(s) each, $updates updates/s, ${duration} s, $profile build" >&2
# shellcheck disable=SC2086 # the market ids are separate arguments
"$bin" clients "http://127.0.0.1:$port" "$key" "$server" "$clients" "$markets_per_client" "$duration" $markets > "$workdir/clients.out" &
load=$!
if [ -n "${MARKETLENS_BENCH_PERF:-}" ]; then
  until grep -q '^measuring' "$workdir/clients.out" 2>/dev/null; do
    kill -0 "$load" 2>/dev/null || break
    sleep 0.1
  done
  perf record -q -F 199 --call-graph dwarf,16384 -p "$server" -o "$MARKETLENS_BENCH_PERF" -- sleep "$duration" 2> "$workdir/perf.log" ||
    { echo "stream: perf failed:" >&2; cat "$workdir/perf.log" >&2; }
fi
wait "$load"
grep -v '^measuring' "$workdir/clients.out"
