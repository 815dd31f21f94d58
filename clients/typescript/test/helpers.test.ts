// The hand-written helpers against a scripted fetch: retries after 429, and pages.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MarketlensError, connect, items, retryAfterSeconds, retryingFetch } from "../src/index.js";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

test("a 429 is sent again after its Retry-After, body and all", async () => {
  const seen: string[] = [];
  const waits: number[] = [];
  const send = retryingFetch({
    fetch: async (request) => {
      seen.push(await request.text());
      return seen.length < 3 ? json(429, {}, { "Retry-After": "2" }) : json(200, { ok: true });
    },
    sleep: async (milliseconds) => void waits.push(milliseconds),
  });
  const response = await send(new Request("http://test/", { method: "POST", body: '{"query":"fed"}' }));
  assert.equal(response.status, 200);
  assert.deepEqual(seen, ['{"query":"fed"}', '{"query":"fed"}', '{"query":"fed"}']);
  assert.deepEqual(waits, [2000, 2000]);
});

test("retries stop at the limit, and a wait over the maximum is not waited out", async () => {
  let calls = 0;
  const limited = retryingFetch({ retries: 2, fetch: async () => (calls++, json(429, {}, { "Retry-After": "0" })), sleep: async () => {} });
  assert.equal((await limited(new Request("http://test/"))).status, 429);
  assert.equal(calls, 3);
  const waits: number[] = [];
  const long = retryingFetch({ fetch: async () => json(429, {}, { "Retry-After": "3600" }), sleep: async (ms) => void waits.push(ms) });
  assert.equal((await long(new Request("http://test/"))).status, 429);
  assert.deepEqual(waits, []);
});

test("Retry-After is read as seconds or a date, with a fallback", () => {
  assert.equal(retryAfterSeconds(json(429, {}, { "Retry-After": "7" })), 7);
  assert.equal(retryAfterSeconds(json(429, {}, { "Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT" })), 0);
  assert.equal(retryAfterSeconds(json(429, {})), 1);
});

test("connect sends the key, and items walks every page", async () => {
  const offsets: number[] = [];
  const client = connect("http://test", "pm_live_k", {
    fetch: async (request) => {
      assert.equal(request.headers.get("Authorization"), "Bearer pm_live_k");
      const url = new URL(request.url);
      const offset = Number(url.searchParams.get("offset"));
      const limit = Number(url.searchParams.get("limit"));
      offsets.push(offset);
      const count = Math.max(0, Math.min(limit, 5 - offset));
      const data = Array.from({ length: count }, (_, n) => ({ externalMarketId: `KXTEST-${offset + n}` }));
      return json(200, { data, pagination: { total: 5, limit, offset, hasMore: offset + count < 5 } });
    },
  });
  const ids: string[] = [];
  for await (const market of items((page) => client.GET("/api/v1/markets", { params: { query: { ...page, status: "OPEN" } } }), 2)) {
    ids.push(market.externalMarketId);
  }
  assert.deepEqual(ids, ["KXTEST-0", "KXTEST-1", "KXTEST-2", "KXTEST-3", "KXTEST-4"]);
  assert.deepEqual(offsets, [0, 2, 4]);
});

test("a refused page throws with the code", async () => {
  const client = connect("http://test", "k", {
    fetch: async () => json(402, { success: false, error: { code: "INSUFFICIENT_CREDITS", message: "No." }, requestId: "r" }),
  });
  await assert.rejects(
    async () => {
      for await (const _ of items((page) => client.GET("/api/v1/markets", { params: { query: page } }))) {
        // unreachable
      }
    },
    (error: unknown) => error instanceof MarketlensError && error.code === "INSUFFICIENT_CREDITS" && error.status === 402,
  );
});
