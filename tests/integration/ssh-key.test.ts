import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { call as callImpl, configure } from "../../provider";
import { sshKeyProvider as p } from "../../provider/resources/sshKey";
import { addUser, call, ed25519Key, get, list } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";
import { resetSession } from "../../provider/session";

const emu = useProviderSuite();
const settings = (url: string, token: string) => configure({ config: { get: (k: string) => ({ "compute:apiUrl": url, "compute:token": token })[k] } });

const key = ed25519Key(11, "ci@example");
/** The account's SSH keys, as the API lists them. */
const keys = () => list(emu, "/profile/sshkeys");

test("create, read, update in place (same id), delete", async () => {
  const { inputs } = await p.check({}, { label: "ci", sshKey: key });
  const c = await p.create(inputs);
  expect(c.outs).toMatchObject({ label: "ci", sshKey: key });
  expect(c.outs.created).toMatch(/^\d{4}-/);
  expect((await keys()).map((k) => k.id)).toEqual([Number(c.id)]);

  const r = await p.read(c.id, c.outs);
  expect(r).toEqual({ id: c.id, props: c.outs, inputs: { label: "ci", sshKey: key } });

  const d = await p.diff(c.id, c.outs, { label: "ci2", sshKey: key });
  expect(d).toMatchObject({ changes: true, replaces: [], deleteBeforeReplace: false });
  const u = await p.update(c.id, c.outs, { label: "ci2", sshKey: key });
  expect(u.outs.label).toBe("ci2");
  expect(await get(emu, `/profile/sshkeys/${c.id}`)).toMatchObject({ id: Number(c.id), label: "ci2" });

  await p.delete(c.id, u.outs);
  expect(await keys()).toEqual([]);
});

test("read sees a change made out of band", async () => {
  const c = await p.create({ label: "ci", sshKey: key });
  await call(emu, "PUT", `/profile/sshkeys/${c.id}`, { body: { label: "edited-by-hand" } });
  const r = await p.read(c.id, c.outs);
  expect(r.props?.label).toBe("edited-by-hand");
  expect(r.inputs?.label).toBe("edited-by-hand");
});

test("read of a deleted key reports it gone; delete of a gone key succeeds", async () => {
  const c = await p.create({ label: "ci", sshKey: key });
  await call(emu, "DELETE", `/profile/sshkeys/${c.id}`);
  expect(await p.read(c.id, c.outs)).toEqual({});
  await expect(p.delete(c.id, c.outs)).resolves.toBeUndefined();
});

test("an API refusal names the operation, the resource and the API's reason", async () => {
  const err = await p.create({ label: "x".repeat(65), sshKey: key }).catch((e) => e);
  expect(err.message).toBe("cannot create SSH key: the API answered HTTP 400: label: Label must be at most 64 characters (got 65)");
});

test("a read-only token is refused with a clear permission error", async () => {
  const ro = await addUser(emu, "reader", { scopes: "account:read_only" });
  resetSession();
  await settings(emu.url, ro);
  const err = await p.create({ label: "ci", sshKey: key }).catch((e) => e);
  expect(err.message).toMatch(/^cannot create SSH key: the API answered HTTP 403: .*account:read_write.*check the token's scopes/);
  expect(err.message).not.toContain(ro);
});

test("a revoked token is a clear 401 that does not print the token", async () => {
  const c = await call(emu, "POST", "/profile/tokens", { body: { label: "temp" } });
  resetSession();
  await settings(emu.url, c.body.token);
  await call(emu, "DELETE", `/profile/tokens/${c.body.id}`);
  const err = await p.read("1", {}).catch((e) => e);
  expect(err.message).toMatch(/HTTP 401.*revoked/);
  expect(err.message).not.toContain(c.body.token);
});

test("without a token the error says how to set one", async () => {
  resetSession();
  const saved = { t: process.env.COMPUTE_TOKEN, u: process.env.COMPUTE_API_URL };
  delete process.env.COMPUTE_TOKEN;
  try {
    const err = await p.create({ sshKey: key }).catch((e) => e);
    expect(err.message).toMatch(/compute:token.*COMPUTE_TOKEN/);
  } finally {
    if (saved.t !== undefined) process.env.COMPUTE_TOKEN = saved.t;
  }
});

test("environment variables are used when no config is set", async () => {
  resetSession();
  const saved = { t: process.env.COMPUTE_TOKEN, u: process.env.COMPUTE_API_URL };
  process.env.COMPUTE_TOKEN = emu.token;
  process.env.COMPUTE_API_URL = emu.url;
  try {
    const c = await p.create({ label: "env", sshKey: key });
    expect(c.outs.label).toBe("env");
  } finally {
    for (const [k, v] of [
      ["COMPUTE_TOKEN", saved.t],
      ["COMPUTE_API_URL", saved.u],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test("call() drops undefined values at any depth (the engine's wire format has none)", async () => {
  const { withoutUndefined } = await import("../../provider");
  expect(withoutUndefined({ a: 1, b: undefined, c: { d: undefined, e: [1, undefined] } })).toEqual({ a: 1, c: { e: [1, null] } });
});

test("the shim's call() entry point dispatches to the resource's methods", async () => {
  const r = (await callImpl("SshKey", "check", [{}, { sshKey: "bad" }])) as { failures: unknown[] };
  expect(r.failures).toHaveLength(1);
  // By index, as the shim sends it (1: check); names stay accepted for states written by older versions.
  expect(((await callImpl("SshKey", 1, [{}, { sshKey: "bad" }])) as { failures: unknown[] }).failures).toHaveLength(1);
  await expect(callImpl("SshKey", 9, [])).rejects.toThrow(/unknown method index 9/);
  await expect(callImpl("Nope", "check", [{}, {}])).rejects.toThrow(/unknown resource type "Nope"/);
});

describe("a create whose answer is lost", () => {
  let proxy: Server;
  let dropped = 0;
  beforeEach(async () => {
    dropped = 0;
    // Forwards to the emulator; drops the connection after the first POST has taken effect.
    const forward = async (req: IncomingMessage, res: ServerResponse) => {
      let body = "";
      for await (const c of req) body += c;
      const target = emu.url.replace(/\/v4$/, "") + req.url;
      const r = await fetch(target, { method: req.method, headers: req.headers as Record<string, string>, body: body || undefined });
      const text = await r.text();
      if (req.method === "POST" && dropped === 0) {
        dropped++;
        req.socket.destroy();
        return;
      }
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(text);
    };
    proxy = createServer((req, res) => void forward(req, res).catch(() => res.destroy()));
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    resetSession();
    await settings(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v4`, emu.token);
  });
  afterEach(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
  });

  test("adopts the key it made instead of making a second one", async () => {
    const c = await p.create({ label: "lost", sshKey: key });
    expect(dropped).toBe(1);
    const all = await keys();
    expect(all).toHaveLength(1);
    expect(c.id).toBe(String(all[0].id));
    expect(emu.log.filter((l) => l.method === "POST")).toHaveLength(1);
  });

  test("does not take over an older key with the same label and key", async () => {
    // An older key, made before this run: the API stamps `created` with the time of the request, so the record is
    // added to the emulator's store with a date in the past.
    emu.store.data.sshkeys.push({ id: emu.store.nextId("sshkey"), label: "lost", ssh_key: key, created: "2020-01-01T00:00:00", username: "admin" });
    const c = await p.create({ label: "lost", sshKey: key });
    const all = await keys();
    expect(all).toHaveLength(2);
    expect(c.id).toBe(String(all[1].id));
  });
});
