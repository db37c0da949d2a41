import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LostAnswerError, ApiClient, ApiError, NetworkError } from "../../provider/transport/client";

type Step = (req: IncomingMessage, res: ServerResponse) => void;
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
const reset: Step = (req) => req.socket.destroy();

let server: Server;
let steps: Step[];
let seen: { method: string; url: string; auth?: string; body: string }[];
let base: string;

beforeEach(async () => {
  steps = [];
  seen = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      (steps.shift() ?? json(500, { errors: [{ reason: "no more steps" }] }))(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = (retry = {}) => new ApiClient({ baseUrl: base, token: "secret-token-value", retry: { baseDelayMs: 1, maxDelayMs: 5, ...retry } });

test("sends the bearer token and JSON, parses the answer", async () => {
  steps = [json(200, { id: 1 })];
  const r = await client().request("POST", "/things", { body: { a: 1 } });
  expect(r.body).toEqual({ id: 1 });
  expect(seen[0]).toMatchObject({ method: "POST", url: "/v4/things", auth: "Bearer secret-token-value", body: '{"a":1}' });
});

test("no Authorization header without a token", async () => {
  steps = [json(200, {})];
  await new ApiClient({ baseUrl: base, token: "" }).request("GET", "/regions");
  expect(seen[0].auth).toBeUndefined();
});

test("an API error carries the status and the field/reason pairs, and never the token", async () => {
  steps = [json(400, { errors: [{ field: "label", reason: "too long" }] })];
  const err = await client()
    .request("PUT", "/things/1", { body: {} })
    .catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toBe(400);
  expect(err.errors).toEqual([{ field: "label", reason: "too long" }]);
  expect(err.message).toContain("label: too long");
  expect(err.message).not.toContain("secret-token-value");
  expect(seen).toHaveLength(1); // 4xx is never retried
});

test("429 is retried after Retry-After", async () => {
  steps = [json(429, { errors: [{ reason: "slow down" }] }, { "retry-after": "1" }), json(200, { ok: true })];
  const t0 = Date.now();
  const r = await client().request("GET", "/things");
  expect(r.body).toEqual({ ok: true });
  expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  expect(seen).toHaveLength(2);
});

test("5xx and dropped connections are retried for reads", async () => {
  steps = [json(502, {}), reset, json(503, {}), json(200, { data: [], page: 1, pages: 1, results: 0 })];
  await expect(client().list("/things")).resolves.toEqual([]);
  expect(seen).toHaveLength(4);
});

test("retries are bounded by the attempt count", async () => {
  steps = Array.from({ length: 10 }, () => json(500, { errors: [{ reason: "boom" }] }));
  const err = await client({ retries: 2 })
    .request("GET", "/things")
    .catch((e) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(seen).toHaveLength(3);
});

test("retries are bounded by the total time", async () => {
  steps = Array.from({ length: 50 }, () => json(429, {}, { "retry-after": "1" }));
  const t0 = Date.now();
  await expect(client({ retries: 50, maxTimeMs: 1500 }).request("GET", "/things")).rejects.toBeInstanceOf(ApiError);
  expect(Date.now() - t0).toBeLessThan(4000);
  expect(seen.length).toBeLessThanOrEqual(3);
});

test("a create is never sent again after a 5xx or a reset: the failure is reported as ambiguous", async () => {
  steps = [json(500, {})];
  const err = await client()
    .request("POST", "/things", { body: {}, idempotent: false })
    .catch((e) => e);
  expect(err).toBeInstanceOf(LostAnswerError);
  expect(seen).toHaveLength(1);
  steps = [reset];
  const err2 = await client()
    .request("POST", "/things", { body: {}, idempotent: false })
    .catch((e) => e);
  expect(err2).toBeInstanceOf(LostAnswerError);
  expect(err2.original).toBeInstanceOf(NetworkError);
  expect(seen).toHaveLength(2);
});

test("a create refused with 429 is retried (the server did nothing)", async () => {
  steps = [json(429, {}, { "retry-after": "0" }), json(200, { id: 9 })];
  expect((await client().request("POST", "/things", { body: {}, idempotent: false })).body).toEqual({ id: 9 });
  expect(seen).toHaveLength(2);
});

test('a create refused with 400 "Compute busy." (the instance has actions under way) is sent again; other 400s are not', async () => {
  steps = [json(400, { errors: [{ reason: "Compute busy." }] }), json(400, { errors: [{ reason: "Compute busy." }] }), json(200, { id: 9 })];
  expect((await client().request("POST", "/things", { body: {}, idempotent: false })).body).toEqual({ id: 9 });
  expect(seen).toHaveLength(3);
  steps = [json(400, { errors: [{ reason: "Label must be unique", field: "label" }] })];
  expect(
    await client()
      .request("POST", "/things", { body: {}, idempotent: false })
      .catch((e) => e),
  ).toBeInstanceOf(ApiError);
  expect(seen).toHaveLength(4);
});

test("a refused connection is retried, also for creates, and reported when it persists", async () => {
  const dead = new ApiClient({ baseUrl: "http://127.0.0.1:1/v4", token: "t", retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
  const err = await dead.request("POST", "/things", { body: {}, idempotent: false }).catch((e) => e);
  expect(err).toBeInstanceOf(NetworkError);
  expect(err.sent).toBe(false);
  expect(err.code).toBe("ECONNREFUSED");
});

test("404 can be accepted as an answer", async () => {
  steps = [json(404, { errors: [{ reason: "Not found" }] })];
  await expect(client().get("/things/1", true)).resolves.toBeUndefined();
});

test("list reads every page", async () => {
  steps = [
    json(200, { data: [1, 2], page: 1, pages: 3, results: 5 }),
    json(200, { data: [3, 4], page: 2, pages: 3, results: 5 }),
    json(200, { data: [5], page: 3, pages: 3, results: 5 }),
  ];
  expect(await client().list("/things")).toEqual([1, 2, 3, 4, 5]);
  expect(seen.map((s) => s.url)).toEqual(["/v4/things?page=1&page_size=500", "/v4/things?page=2&page_size=500", "/v4/things?page=3&page_size=500"]);
});
