/**
 * TypeScript client of the Marketlens API.
 *
 * `schema.d.ts` is generated from the server's OpenAPI document by openapi-typescript, and
 * openapi-fetch makes typed calls from it (`client.GET("/api/v1/markets", ...)`). This module
 * adds only what the generator cannot know:
 * - `connect`: a client that sends the key and waits out a 429 as its `Retry-After` says (a
 *   429 is never charged, so a retry cannot charge a call twice);
 * - `items`: every item of a list operation, page after page.
 */
import createClient, { type Client } from "openapi-fetch";

import type { components, operations, paths } from "./schema.js";

export type { components, operations, paths };
/** The document's schemas by name: `Schemas["MarketDetail"]`. */
export type Schemas = components["schemas"];

/** How long to wait when a 429 carries no usable `Retry-After`, in seconds. */
const DEFAULT_WAIT_SECONDS = 1;

export interface RetryOptions {
  /** How many times a request is sent again after a 429 (default 3). */
  retries?: number;
  /** A longer wait than this is not waited out, and the 429 is returned (default 60 s). */
  maxWaitSeconds?: number;
  /** The fetch that sends each attempt (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (default: a timer); tests pass their own. */
  sleep?: (milliseconds: number) => Promise<void>;
}

/** The seconds a response's `Retry-After` asks to wait: seconds, or an HTTP date. */
export function retryAfterSeconds(response: Response): number {
  const value = response.headers.get("Retry-After")?.trim() ?? "";
  if (/^\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_WAIT_SECONDS : Math.max(0, (date - Date.now()) / 1000);
}

/** A fetch that sends a request again after a 429, as `Retry-After` says. */
export function retryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const maxWaitSeconds = options.maxWaitSeconds ?? 60;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? ((milliseconds: number) => new Promise<void>((done) => setTimeout(done, milliseconds)));
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      const response = await send(request.clone());
      if (response.status !== 429 || attempt >= retries) {
        return response;
      }
      const wait = retryAfterSeconds(response);
      if (wait > maxWaitSeconds) {
        return response;
      }
      await response.body?.cancel();
      await sleep(wait * 1000);
    }
  };
}

/**
 * A typed client of the server at `baseUrl` (e.g. `http://127.0.0.1:8080`) that sends
 * `apiKey` with every call and retries after a 429. Without a key, only the public
 * operations (`/healthz`, `/readyz`, `/metrics`, the document) answer.
 */
export function connect(baseUrl: string, apiKey?: string, options: RetryOptions = {}): Client<paths> {
  return createClient<paths>({
    baseUrl,
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    fetch: retryingFetch(options),
  });
}

/** The server refused a call: `code` is the stable error code to branch on. */
export class MarketlensError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "MarketlensError";
  }
}

/** What a list operation's call gives: a page, or the error. */
interface PageResult<Item> {
  data?: { data: Item[]; pagination: Schemas["Pagination"] };
  error?: Schemas["ErrorBody"];
  response: Response;
}

/**
 * Every item of a list operation, asking for the next page while the server says there is
 * one:
 *
 *     for await (const market of items((page) =>
 *       client.GET("/api/v1/markets", { params: { query: { ...page, status: "OPEN" } } }))) { ... }
 *
 * Throws `MarketlensError` when the server refuses a page.
 */
export async function* items<Item>(
  fetchPage: (page: { limit: number; offset: number }) => Promise<PageResult<Item>>,
  pageSize = 200,
): AsyncGenerator<Item> {
  let offset = 0;
  for (;;) {
    const { data, error, response } = await fetchPage({ limit: pageSize, offset });
    if (!data) {
      throw new MarketlensError(response.status, error?.error.code ?? "UNEXPECTED_RESPONSE", error?.error.message ?? "");
    }
    yield* data.data;
    if (!data.pagination.hasMore || data.data.length === 0) {
      return;
    }
    offset += data.data.length;
  }
}
