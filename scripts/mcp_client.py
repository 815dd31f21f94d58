"""Drives a live server's /mcp with the official Python MCP SDK's client (PyPI's `mcp`,
pinned in scripts/mcp-requirements.txt), as an agent would: lists the tools, calls each, and
checks that each answered what the same REST call answers and that the account's credits
moved by exactly what those REST calls cost. Run by scripts/mcp, once per way the SDK
connects: `auto` (the 2026-07-28 protocol, found by server/discover) and `legacy` (the
initialize handshake of earlier versions).

Usage: python scripts/mcp_client.py BASE_URL API_KEY
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.parse
import urllib.request
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

# Each tool and its REST call, from the API's own documentation (docs/contract/interface.md),
# not from the server's tool list: the check should not take the server's word for it.
REST_PATHS = {
    "search_markets": "/api/v1/markets",
    "get_market": "/api/v1/markets/{id}",
    "list_events": "/api/v1/events",
    "get_event": "/api/v1/events/{id}",
    "explain": "/api/v1/explain",
    "market_history": "/api/v1/markets/{id}/history",
    "list_spreads": "/api/v1/spreads",
    "get_account": "/api/v1/account",
}
# The contract's prices (docs/contract/interface.md, sections 1 and "Beyond").
PRICES = {name: 1 for name in REST_PATHS} | {"explain": 5, "get_account": 0}
# What differs from one call to the next, left out of the comparison.
VOLATILE = [("processingTimeMs",), ("data", "meta", "timestamp"), ("data", "credits"), ("data", "rateLimit")]


def rest(base_url: str, key: str, name: str, arguments: dict[str, Any]) -> tuple[int, Any]:
    """The REST call a tool stands for: its credits used and its JSON."""
    path = REST_PATHS[name]
    query = {}
    for argument, value in arguments.items():
        placeholder = "{" + argument + "}"
        if placeholder in path:
            path = path.replace(placeholder, urllib.parse.quote(str(value), safe=""))
        else:
            query[argument] = value
    url = base_url + path + ("?" + urllib.parse.urlencode(query) if query else "")
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request) as response:
        return int(response.headers.get("X-Credits-Used", "0")), json.load(response)


def remaining_credits(base_url: str, key: str) -> int:
    return int(rest(base_url, key, "get_account", {})[1]["data"]["credits"]["remaining"])


def steady(body: Any) -> Any:
    body = json.loads(json.dumps(body))
    for path in VOLATILE:
        parent = body
        for field in path[:-1]:
            parent = parent.get(field, {}) if isinstance(parent, dict) else {}
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    return body


async def call(client: Client, name: str, arguments: dict[str, Any]) -> tuple[Any, int]:
    """A tool's structured result and the credits its `_meta` says it used."""
    result = await client.call_tool(name, arguments)
    if result.is_error:
        raise SystemExit(f"mcp: {name} {arguments} answered an error: {result.structured_content}")
    text = json.loads(result.content[0].text)  # type: ignore[union-attr]
    if text != result.structured_content:
        raise SystemExit(f"mcp: {name}'s text and structured content differ")
    meta = result.meta or {}
    return result.structured_content, int(meta.get("creditsUsed", 0))


async def run(base_url: str, key: str, mode: str) -> None:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    async with http, Client(streamable_http_client(base_url + "/mcp", http_client=http), mode=mode) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        if sorted(tools) != sorted(REST_PATHS):
            raise SystemExit(f"mcp ({mode}): the tools are {tools}, not {sorted(REST_PATHS)}")
        print(f"mcp ({mode}, protocol {client.protocol_version}): {len(tools)} tools: {', '.join(tools)}")

        before = remaining_credits(base_url, key)
        answers: list[tuple[str, dict[str, Any], Any, int]] = []

        async def tool(name: str, arguments: dict[str, Any]) -> Any:
            answer, credits_used = await call(client, name, arguments)
            answers.append((name, arguments, answer, credits_used))
            return answer

        markets = await tool("search_markets", {"search": "will", "status": "OPEN", "limit": 5})
        market = markets["data"][0]
        detail = await tool("get_market", {"id": market["id"]})
        events = await tool("list_events", {"limit": 3})
        await tool("get_event", {"id": events["data"][0]["id"]})
        await tool("explain", {"query": detail["data"]["question"]})
        await tool("market_history", {"id": market["id"], "interval": "1d", "limit": 5})
        await tool("list_spreads", {"limit": 3})
        await tool("get_account", {})
        after_mcp = remaining_credits(base_url, key)

        rest_total = 0
        for name, arguments, answer, credits_used in answers:
            rest_credits, rest_answer = rest(base_url, key, name, arguments)
            if steady(answer) != steady(rest_answer):
                raise SystemExit(f"mcp ({mode}): {name} answered otherwise than its REST call")
            if not credits_used == rest_credits == PRICES[name]:
                raise SystemExit(
                    f"mcp ({mode}): {name} used {credits_used} credits, its REST call {rest_credits}, "
                    f"the price is {PRICES[name]}"
                )
            rest_total += rest_credits
            print(f"  {name}: {credits_used} credit(s), as over REST")
        after_rest = remaining_credits(base_url, key)
        mcp_total = before - after_mcp
        if not mcp_total == after_mcp - after_rest == rest_total:
            raise SystemExit(
                f"mcp ({mode}): the tools took {mcp_total} credits, their REST calls {after_mcp - after_rest}"
            )
        print(f"mcp ({mode}): the tools took {mcp_total} credits, exactly what the same REST calls took")


def main() -> None:
    base_url, key = sys.argv[1:3]
    for mode in ("auto", "legacy"):
        asyncio.run(run(base_url, key, mode))


if __name__ == "__main__":
    main()
