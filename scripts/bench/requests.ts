/** Section 1: the requests the provider makes per operation of each resource's lifecycle. */
import * as path from "node:path";
import { startEmulator, type Emulator } from "../../emulator/server";
import type { ResourceProvider } from "../../provider/lifecycle/hooks";
import { ROOT, type Props } from "./common";
import { PASS, providerFor, publicKey } from "./provider";

interface Lifecycle {
  type: string;
  setup?: (p: Record<string, ResourceProvider>, emu: Emulator) => Promise<Props>;
  inputs: (ctx: Props) => Props;
  change: (ctx: Props) => Props;
  /** The least the API allows per operation (mutating requests, or GETs for a refresh). */
  min: { create: number; refresh: number; update: number; delete: number };
  /** Reads a create needs besides polls (a database's credentials and certificate: outputs). */
  createReads?: number;
  /** Paths whose GETs are status polls of this resource. */
  polls: RegExp;
}

export async function requestsPerLifecycle(): Promise<string> {
  const emu = await startEmulator({ speed: 0.02 });
  const p = await providerFor(emu);
  const make = async (type: string, news: Props) => {
    const r = await p[type].check({}, news);
    if (r.failures.length) throw new Error(`${type}: ${JSON.stringify(r.failures)}`);
    return { ...(await p[type].create(r.inputs)), inputs: r.inputs };
  };
  const instance = async (label: string, image = true) =>
    (await make("Instance", { region: "us-east", type: "c1-standard-2", label, ...(image ? { image: "compute/debian12", rootPass: PASS } : {}) })).id;
  const cases: Lifecycle[] = [
    {
      type: "SshKey",
      inputs: () => ({ label: "k", sshKey: publicKey(1) }),
      change: () => ({ label: "k2", sshKey: publicKey(1) }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /sshkeys\/\d+$/,
    },
    {
      type: "Vpc",
      inputs: () => ({ label: "net", region: "us-east" }),
      change: () => ({ label: "net", region: "us-east", description: "d" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /vpcs\/\d+$/,
    },
    {
      type: "Subnet",
      setup: async () => ({ vpcId: (await make("Vpc", { label: "net-s", region: "us-east" })).id }),
      inputs: (c) => ({ vpcId: c.vpcId, label: "s", ipv4: "10.0.1.0/24" }),
      change: (c) => ({ vpcId: c.vpcId, label: "s2", ipv4: "10.0.1.0/24" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /subnets\/\d+$/,
    },
    {
      type: "Instance",
      inputs: () => ({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "life-1" }),
      change: () => ({ region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "life-2" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /instances\/\d+$/,
    },
    {
      type: "Disk",
      setup: async () => ({ computeId: await instance("disk-host", false) }),
      inputs: (c) => ({ computeId: c.computeId, label: "d", size: 1000 }),
      change: (c) => ({ computeId: c.computeId, label: "d2", size: 1000 }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /disks\/\d+$/,
    },
    {
      type: "Config",
      setup: async () => {
        const computeId = await instance("cfg-host", false);
        return { computeId, diskId: (await make("Disk", { computeId, label: "d", size: 100 })).id };
      },
      inputs: (c) => ({ computeId: c.computeId, label: "c", devices: { sda: { diskId: c.diskId } } }),
      change: (c) => ({ computeId: c.computeId, label: "c2", devices: { sda: { diskId: c.diskId } } }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /configs\/\d+$/,
    },
    {
      type: "Interface",
      setup: async () => {
        const computeId = await instance("if-host");
        return { computeId, configId: emu.store.data.configs.find((x) => String(x.compute_id) === computeId)!.id };
      },
      inputs: (c) => ({ computeId: c.computeId, configId: c.configId, purpose: "public" }),
      change: (c) => ({ computeId: c.computeId, configId: c.configId, purpose: "public", primary: true }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /interfaces\/\d+$/,
    },
    {
      type: "Image",
      setup: async () => {
        const computeId = await instance("img-host");
        return { diskId: emu.store.data.disks.find((x) => String(x.compute_id) === computeId)!.id };
      },
      inputs: (c) => ({ diskId: c.diskId, label: "img" }),
      change: (c) => ({ diskId: c.diskId, label: "img2" }),
      min: { create: 1, refresh: 1, update: 1, delete: 1 },
      polls: /images\/private\/\d+$/,
    },
    {
      type: "MysqlDatabase",
      inputs: () => ({ label: "bench-my", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" }),
      change: () => ({ label: "bench-my-2", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" }),
      min: { create: 1, refresh: 3, update: 1, delete: 1 },
      createReads: 2,
      polls: /instances\/\d+$/,
    },
    {
      type: "PostgresDatabase",
      inputs: () => ({ label: "bench-pg", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" }),
      change: () => ({ label: "bench-pg-2", region: "us-east", type: "c1-standard-2", engine: "postgresql/16.1" }),
      min: { create: 1, refresh: 3, update: 1, delete: 1 },
      createReads: 2,
      polls: /instances\/\d+$/,
    },
  ];
  const rows: string[] = [];
  const measure = async (fn: () => Promise<unknown>, polls: RegExp) => {
    const start = emu.log.length;
    await fn();
    const reqs = emu.log.slice(start).filter((l) => l.path.startsWith("/v4/"));
    const mutating = reqs.filter((l) => l.method !== "GET").length;
    const pollCount = reqs.filter((l) => l.method === "GET" && polls.test(l.path.split("?")[0])).length;
    const otherGets = reqs.filter((l) => l.method === "GET" && !polls.test(l.path.split("?")[0])).length;
    return { total: reqs.length, mutating, polls: pollCount, otherGets };
  };
  for (const c of cases) {
    const ctx = c.setup ? await c.setup(p, emu) : {};
    const impl = p[c.type];
    const ins = (await impl.check({}, c.inputs(ctx))).inputs;
    let created!: { id: string; outs: Props };
    const cr = await measure(async () => (created = await impl.create(ins)), c.polls);
    const rf = await measure(() => impl.read(created.id, created.outs), c.polls);
    const news = (await impl.check({}, c.change(ctx))).inputs;
    let outs = created.outs;
    const up = await measure(async () => (outs = (await impl.update(created.id, created.outs, news)).outs), c.polls);
    const dl = await measure(() => impl.delete(created.id, outs), c.polls);
    const cell = (m: { total: number; mutating: number; polls: number; otherGets: number }, min: number, refresh = false, reads = 0) => {
      const extra = refresh ? m.total - min : m.mutating - min + m.otherGets - reads;
      return `${m.total} (${refresh ? `${m.total} GET` : `${m.mutating} write, ${m.polls} polls`}${m.otherGets && !refresh ? `, ${m.otherGets} other GET` : ""})${extra > 0 ? ` **+${extra}**` : ""}`;
    };
    rows.push(
      `| ${c.type} | ${cell(cr, c.min.create, false, c.createReads ?? 0)} | ${cell(rf, c.min.refresh, true)} | ${cell(up, c.min.update)} | ${cell(dl, c.min.delete)} |`,
    );
  }
  // The price catalogue, read once in the session (at the first priced resource's check), outside every operation above.
  const catalogue = emu.log.filter((l) => /^\/v4\/(compute|databases)\/types(\?|$)/.test(l.path)).length;
  const lookups = await lookupRequests(emu);
  await emu.close();
  return [
    "## 1. Requests per lifecycle",
    "",
    "HTTP requests the provider makes per operation, from the emulator's request log (emulator speed 0.02). The minimum is one write per create, update and delete, and one GET per refresh; a database's create and refresh also read its credentials and certificate (secret outputs the user needs), so its refresh takes three GETs. **+N**: requests beyond the minimum other than status polls. Target: none.",
    "",
    "| Resource | create | refresh | update in place | delete |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `The price catalogue (\`hourlyPrice\`, \`monthlyPrice\`): ${catalogue} GETs in this whole run of one provider session (\`/compute/types\`, \`/databases/types\`), read once by the first priced resource's check and kept for the session; no operation above reads it again. Target: two per session.`,
    "",
    ...lookups,
    "",
  ].join("\n");
}

/**
 * A lookup on a large account: 1,000 SSH keys made through the emulator's API, read whole (every page of 500)
 * and filtered on a label (the API's `X-Filter`: the one page of what it keeps).
 */
async function lookupRequests(emu: Emulator): Promise<string[]> {
  const { invoke } = require(path.join(ROOT, "dist", "provider", "functions")) as typeof import("../../provider/functions");
  const { ApiClient } = require(path.join(ROOT, "dist", "provider", "transport", "client")) as typeof import("../../provider/transport/client");
  const keys = 1000;
  for (let i = 0; i < keys; i++) {
    const res = await fetch(`${emu.url}/profile/sshkeys`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ label: `key-${i}`, ssh_key: publicKey(10_000 + i) }),
    });
    if (res.status !== 200) throw new Error(`POST /profile/sshkeys: ${res.status} ${await res.text()}`);
  }
  const c = new ApiClient({ baseUrl: emu.url, token: emu.token });
  const count = async (args: Props) => {
    const start = emu.log.length;
    const r = await invoke(c, "getSshKeys", args);
    return { items: (r.sshKeys as unknown[]).length, requests: emu.log.length - start };
  };
  const all = await count({});
  const one = await count({ filters: [{ name: "label", values: ["key-500"] }] });
  return [
    `Lookups on an account of ${keys.toLocaleString("en")} SSH keys (\`getSshKeys\`): the filters the API's \`X-Filter\` can say are sent with the list, and the client filters again. Target: one request for a filtered lookup.`,
    "",
    "| Lookup | items | requests |",
    "|---|---|---|",
    `| every key | ${all.items} | ${all.requests} |`,
    `| filtered on a label | ${one.items} | ${one.requests}${one.requests > 1 ? ` **+${one.requests - 1}**` : ""} |`,
  ];
}
