# Sourced by the benchmarks: wrk's `--latency` report on standard input reduced to one line,
# "NAME|req/s|p50 ms|p99 ms|non-2xx", so that every benchmark reads wrk the same way.
# Usage: wrk ... --latency URL 2>&1 | wrk_summary NAME
wrk_summary() {
    python3 -c '
import re, sys
text = sys.stdin.read()
def ms(label):
    match = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    value, unit = float(match.group(1)), match.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
print("%s|%.0f|%.2f|%.2f|%s" % (sys.argv[1], rps, ms("50"), ms("99"), errors.group(1) if errors else "0"))
' "$1"
}

# One summary line as a table row, the name padded to WIDTH characters.
# Usage: ... | wrk_summary NAME | wrk_row WIDTH
wrk_row() {
    awk -F'|' -v width="$1" '{ printf "%-*s %10s %9s %9s %8s\n", width, $1, $2, $3, $4, $5 }'
}

# One call driven by wrk, summarized by wrk_summary.
# Usage: wrk_measure NAME URL ITEMS CONNECTIONS SECONDS HEADER [TIMEOUT]
# With ITEMS (a file), each request is URL's path followed by one of its lines, drawn at random
# (bench/lib/random.lua); TIMEOUT (default wrk's 2s) is how long a request may take before it
# counts as failed rather than slow.
wrk_measure() {
    local name=$1 url=$2 items=$3 connections=$4 seconds=$5 header=$6 timeout=${7:-2s}
    local script=()
    if [ -n "$items" ]; then script=(-s bench/lib/random.lua); fi
    BENCH_ITEMS="$items" BENCH_PREFIX="/${url#http://*/}" \
        wrk -t2 -c"$connections" -d"${seconds}s" --timeout "$timeout" --latency -H "$header" "${script[@]}" "$url" 2>&1 |
        wrk_summary "$name"
}
