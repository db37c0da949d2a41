/**
 * The session (provider/session.ts): everything a provider process holds across operations, cancellation and
 * connections included, in one object with one reset; code run with `inSession` has a session of its own,
 * so that two sessions at once (two provider tests in one process) see neither each other's settings nor
 * each other's cancellation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cancel, CancelledError, checkCancelled, counted, isCancelled, pause } from "../../provider/lifecycle/cancel";
import { inSession, processSession, resetSession, session, Session } from "../../provider/session";
import { clientFor, configure, configuredSettings } from "../../provider/transport/settings";
import { claimSnapshotSlot } from "../../provider/resources/instance/declared";

let server: Server;
let url: string;
/** The bearer token of each request the server saw, and the port of the connection it came on. */
const seen: { auth?: string; port: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ auth: req.headers.authorization, port: req.socket.remotePort! });
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
});
afterAll(async () => {
  resetSession();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => resetSession());

const configured = (token: string) => configure({ get: (k) => ({ "compute:token": token, "compute:apiUrl": url })[k] });

test("two sessions at once keep their own settings, clients and connections", async () => {
  const a = new Session();
  const b = new Session();
  const run = (s: Session, token: string) =>
    inSession(s, async () => {
      configured(token);
      await pause(20, "letting the other session configure");
      const c = clientFor(configuredSettings(), { tokenRequired: true });
      await c.request("GET", "/regions");
      return { token: configuredSettings().token, client: c };
    });
  const [ra, rb] = await Promise.all([run(a, "token-a"), run(b, "token-b")]);
  expect([ra.token, rb.token]).toEqual(["token-a", "token-b"]);
  expect(ra.client).not.toBe(rb.client);
  expect(
    seen
      .slice(-2)
      .map((s) => s.auth)
      .sort(),
  ).toEqual(["Bearer token-a", "Bearer token-b"]);
  expect(a.connections).toBeDefined();
  expect(b.connections).toBeDefined();
  expect(a.connections).not.toBe(b.connections);
  // The process's own session saw none of it.
  expect(session()).toBe(processSession());
  expect(configuredSettings()).toEqual({});
  expect(processSession().connections).toBeUndefined();
  await Promise.all([a.connections!.close(), b.connections!.close()]);
});

test("a cancel ends the waits of its session only", async () => {
  const a = new Session();
  const b = new Session();
  const started = Date.now();
  const waitA = inSession(a, () => pause(10_000, "waiting in a"));
  const waitB = inSession(b, () => counted(() => pause(100, "waiting in b")));
  inSession(a, () => cancel("Ctrl-C in a"));
  await expect(waitA).rejects.toThrow(new CancelledError("cancelled (Ctrl-C in a) while waiting in a"));
  expect(Date.now() - started).toBeLessThan(1000);
  await expect(waitB).resolves.toBeUndefined();
  expect(inSession(a, isCancelled)).toBe(true);
  expect(inSession(b, isCancelled)).toBe(false);
  expect(() => inSession(b, () => checkCancelled("going on"))).not.toThrow();
  expect(isCancelled()).toBe(false);
  expect(b.cancellation.underWay).toBe(0);
});

test("resetSession resets everything of the process's session, cancellation and connections included", async () => {
  configured("token-p");
  const given = configuredSettings();
  const first = clientFor(given, { tokenRequired: true });
  await first.request("GET", "/regions");
  const old = processSession();
  const pool = old.connections!;
  const waiting = counted(() => pause(10_000, "waiting before the reset"));
  cancel("Ctrl-C before the reset");
  await expect(waiting).rejects.toThrow(CancelledError);
  expect(isCancelled()).toBe(true);

  resetSession();
  const now = processSession();
  expect(now).not.toBe(old);
  expect(isCancelled()).toBe(false);
  expect(now.cancellation).toEqual({ reason: undefined, sleepers: new Set(), underWay: 0, exitWhenIdle: false });
  expect(configuredSettings()).toEqual({});
  // The same settings give a new client (the old one went with the old session).
  expect(clientFor(given, { tokenRequired: true })).not.toBe(first);
  expect(now.connections).toBeUndefined();
  // The old pool is closed: it takes no more requests.
  expect(pool.closed).toBe(true);
  await expect(pause(1, "after the reset")).resolves.toBeUndefined();
});

test("each session has its own program context, and a reset starts it afresh", () => {
  const other = new Session();
  // A snapshot slot claimed in another session is free in this one.
  expect(inSession(other, () => claimSnapshotSlot(session().program, "7", "InstanceSnapshot a"))).toBeUndefined();
  expect(claimSnapshotSlot(session().program, "7", "InstanceSnapshot b")).toBeUndefined();
  expect(inSession(other, () => claimSnapshotSlot(session().program, "7", "InstanceSnapshot c"))).toBe("InstanceSnapshot a");
  const before = processSession().program;
  resetSession();
  expect(processSession().program).not.toBe(before);
  expect(claimSnapshotSlot(session().program, "7", "InstanceSnapshot c")).toBeUndefined();
});
