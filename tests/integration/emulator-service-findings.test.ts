/**
 * What a new user's attack on the emulator's service surfaces found (issue 53, fresh eyes), each a regression test:
 * a request body sent slowly, or never, held its connection past the idle timeout (and with the cap full, kept
 * every other client out); the request log showed secrets its redaction missed (in a query string, a two-factor
 * code, cloud-init user data, security answers, a pre-signed upload URL, keys spelt otherwise, a PEM key); a fault
 * rule's Retry-After and seed took values no client reads; an X-Filter sent as UTF-8 (as Go's client sends it)
 * matched nothing, and its byte bound counted a non-ASCII character twice.
 */
import { connect, type Socket } from "node:net";
import type { Emulator } from "../../emulator/server";
import { call, emulator } from "../helpers/emulator";

let emu: Emulator;
const IDLE_MS = 1500;
beforeAll(async () => {
  emu = await emulator({ speed: 0, connections: { max: 50, idleMs: IDLE_MS } });
});
afterAll(async () => {
  await emu.close();
});

const origin = () => new URL(emu.url);

/** A raw connection that sends `head` (a request's headers) and then nothing; resolves when the server closes it, with what it answered. */
function silentBody(head: string): Promise<{ answer: string; closedAfterMs: number; socket: Socket }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(origin().port), origin().hostname);
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({ answer, closedAfterMs: Date.now() - started, socket }));
    socket.write(head);
  });
}

describe("a request body that does not come", () => {
  test("with a valid token: the connection is closed once it has been silent for the idle timeout", async () => {
    const head = `PUT /v4/profile HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
    const { closedAfterMs } = await silentBody(head);
    // Closed by the idle timeout, not held for the request timeout (300 s).
    expect(closedAfterMs).toBeLessThan(IDLE_MS * 4);
  });

  test("answered before its body (no token: 401), the connection is closed, not kept reading what the client sends", async () => {
    const head = "PUT /v4/profile HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
    const { answer, closedAfterMs } = await silentBody(head);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(closedAfterMs).toBeLessThan(IDLE_MS);
  });

  test("declared larger than the limit: 413 at once, before a byte of it is read", async () => {
    const head = `POST /v4/profile/sshkeys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n`;
    const { answer } = await silentBody(head);
    expect(answer).toMatch(/^HTTP\/1\.1 413 [\s\S]*Request body larger than 1048576 bytes/);
  });
});

test("the request log redacts the secrets it missed", async () => {
  const pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
  const secrets = [
    "QUERYSECRET1",
    "QUERYTOK",
    "887282",
    "dXNlcl9kYXRhIHNlY3JldA==",
    "SQANSWER1",
    "PRIVKEY1",
    "XAPIKEY1",
    "MYSQLPW1",
    "b3BlbnNzaC1rZXktdjEAAAAA",
  ];
  await call(emu, "POST", "/compute/instances?root_pass=QUERYSECRET1&token=QUERYTOK&region=us-east", {
    body: {
      region: "us-east",
      type: "c1-standard-2",
      label: "logged",
      metadata: { user_data: "dXNlcl9kYXRhIHNlY3JldA==" },
      stackscript_data: { mysql_pw: "MYSQLPW1", privateKey: "PRIVKEY1", "x-api-key": "XAPIKEY1", note: pem },
    },
  });
  await call(emu, "POST", "/profile/tfa-enable-confirm", { body: { tfa_code: "887282" } });
  await call(emu, "POST", "/profile/security-questions", { body: { security_questions: [{ question_id: 1, response: "SQANSWER1" }] } });
  const log = JSON.stringify((await call(emu, "GET", "/__emulator/log")).body);
  for (const secret of secrets) expect(log).not.toContain(secret);
  expect(log).toContain("root_pass=%5Bredacted%5D");
  expect(log).toContain("region=us-east");
  // What is not secret stays readable.
  expect(log).toContain('\\"label\\":\\"logged\\"');
});

test("an image upload's pre-signed URL is not in the log", async () => {
  const up = await call(emu, "POST", "/images/upload", { body: { label: "logged-upload", region: "us-east" } });
  expect(up.status).toBe(200);
  const log = JSON.stringify((await call(emu, "GET", "/__emulator/log")).body);
  expect(log).not.toContain(new URL(String(up.body.upload_to)).pathname);
});

test("a fault rule's Retry-After is a whole number of seconds, and its seed a whole number", async () => {
  const rules = [{ match: "^GET /v4/never$", rate: 1, kinds: ["429"] }];
  for (const [body, field] of [
    [{ seed: 1, rules, retryAfterSeconds: 1.5 }, "retryAfterSeconds"],
    [{ seed: 1, rules, retryAfterSeconds: 1e308 }, "retryAfterSeconds"],
    [{ seed: 1.5, rules }, "seed"],
    [{ seed: -1, rules }, "seed"],
  ] as const) {
    const r = await call(emu, "PUT", "/__emulator/faults", { body });
    expect([r.status, r.body.errors[0].reason]).toEqual([400, expect.stringContaining(`${field} must be a whole number`)]);
  }
  expect((await call(emu, "PUT", "/__emulator/faults", { body: { seed: 7, rules, retryAfterSeconds: 2 } })).status).toBe(200);
  expect((await call(emu, "DELETE", "/__emulator/faults")).status).toBe(200);
});

/** A GET whose X-Filter header is sent as these bytes (UTF-8, as Go's client sends it). */
function rawFilter(path: string, filter: Buffer): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(origin().port), origin().hostname);
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString("utf8")));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head, body] = answer.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), body: JSON.parse(body) });
    });
    socket.write(
      Buffer.concat([
        Buffer.from(`GET /v4${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${emu.token}\r\nX-Filter: `),
        filter,
        Buffer.from("\r\n\r\n"),
      ]),
    );
  });
}

test("an X-Filter sent as UTF-8 matches the text it says, and its bound counts its bytes", async () => {
  expect((await call(emu, "POST", "/vpcs", { body: { label: "cafe-vpc", region: "us-east", description: "café" } })).status).toBe(200);
  const found = await rawFilter("/vpcs", Buffer.from(JSON.stringify({ description: "café" }), "utf8"));
  expect([found.status, found.body.results]).toEqual([200, 1]);
  // 2,046 é are 4,092 bytes with the braces and key: under the 8,192-byte bound.
  const wide = await rawFilter("/vpcs", Buffer.from(JSON.stringify({ description: "é".repeat(2046) }), "utf8"));
  expect([wide.status, wide.body.results]).toEqual([200, 0]);
});
