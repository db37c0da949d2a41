/**
 * Clean imports of real API answers, through the plain CLI and the installed plugin: the recorded answers
 * of the real API (tests/fixtures/real-answers, renamed from linode/linodego's cassettes) are served
 * read-only (tests/helpers/replay.ts), `pulumi import` adopts one or more records of every resource type
 * (profiles with and without disks, with vlan and vpc interfaces with and without 1:1 NAT, an instance
 * deployed from an image), `pulumi refresh --expect-no-changes` passes, and a YAML program that declares
 * each resource with the inputs the import recorded previews no change. No write is ever sent.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { resourcesOf, TestStack } from "../helpers/pulumi";
import { loadAnswers, replayServer, type ReplayServer } from "../helpers/replay";

jest.setTimeout(300_000);

let plugin: InstalledPlugin;
let replay: ReplayServer;
let dir: string;
let stack: TestStack;

/** What is imported: the type, a name, and the import id (a child's names its parents). */
const IMPORTS: Array<[string, string, string]> = [
  ["Instance", "from-image", "59542994"],
  ["Disk", "root", "59542994/117262206"],
  ["Config", "with-disks", "59542994/62729621"],
  ["Config", "no-disks", "82372491/85836407"],
  ["Config", "public-vlan-vpc-nat", "82372484/85836386"],
  ["Config", "vpc-no-nat", "82372487/85836393"],
  ["Config", "vpc-nat-reordered", "82372480/85836382"],
  ["Interface", "vpc-nat-null", "82372477/85836379/6763950"],
  ["Interface", "vpc-nat-set", "97189528/100667257/12282598"],
  ["InstanceSnapshot", "snapshot", "82372564/342223088"],
  ["Vpc", "vpc", "583172"],
  ["Subnet", "subnet", "233448/240935"],
  ["Image", "image", "private/26427534"],
  ["MysqlDatabase", "mysql", "227288"],
  ["PostgresDatabase", "postgres", "227300"],
  ["MysqlDatabaseSnapshot", "mysql-backup", "137649/1441811"],
  ["PostgresDatabaseSnapshot", "postgres-backup", "133403/1425482"],
  ["SshKey", "key", "451621"],
  ["Token", "token", "57288262"],
];

beforeAll(async () => {
  plugin = await installPlugin();
  // One answer per path: the current API's database list, not the 2024 one.
  replay = await replayServer(loadAnswers().filter((a) => a.name !== "databases-2024"));
  dir = mkdtempSync(path.join(tmpdir(), "pulumi-compute-imports-"));
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: imports\nruntime: yaml\n");
  stack = new TestStack(dir, `imports-${process.pid}`, {
    config: { "compute:apiUrl": replay.url },
    secrets: { "compute:token": "replayed-token-0123456789abcdef" },
    env: plugin.env,
  });
});
afterAll(async () => {
  stack?.cleanup();
  plugin?.cleanup();
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("every resource type imports from real answers: refresh changes nothing, the declared program previews no change", async () => {
  const file = path.join(dir, "import.json");
  writeFileSync(file, JSON.stringify({ resources: IMPORTS.map(([type, name, id]) => ({ type: `compute:index:${type}`, name, id })) }));
  const imported = await stack.run("import", { flags: ["--file", file, "--generate-code=false", "--protect=false"] });
  expect(imported.code).toBe(0);
  expect(imported.json.summary).toMatchObject({ import: IMPORTS.length });

  const refresh = await stack.run("refresh", { flags: ["--expect-no-changes"] });
  expect([refresh.code, refresh.output]).toEqual([0, expect.any(String)]);

  // The program as a user writes it from what was imported: each resource with the inputs the import recorded.
  const exported = await stack.ok("export");
  const resources: Record<string, unknown> = {};
  for (const r of resourcesOf(exported, "").filter((x: any) => x.type.startsWith("compute:index:"))) {
    const inputs = Object.fromEntries(Object.entries(r.inputs as Record<string, unknown>).filter(([k]) => !k.startsWith("__")));
    resources[r.urn.split("::").pop()] = { type: r.type, properties: inputs };
  }
  expect(Object.keys(resources).sort()).toEqual(IMPORTS.map(([, name]) => name).sort());
  writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify({ name: "imports", runtime: "yaml", resources }, null, 2));
  const preview = await stack.run("preview", { flags: ["--expect-no-changes"] });
  expect([preview.code, preview.json?.changeSummary]).toEqual([0, { same: IMPORTS.length + 1 }]);

  // What the import read that the state needs: the swap disk of an instance deployed from an image, a
  // profile's devices with every slot, its interfaces in the input's form.
  const byName = (n: string) => resourcesOf(exported, "").find((r: any) => r.urn.endsWith(`::${n}`));
  expect(byName("from-image").outputs.swapSize).toBe(512);
  expect(Object.keys(byName("no-disks").inputs.devices).sort()).toEqual(["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"]);
  expect(byName("public-vlan-vpc-nat").outputs.interfaces.map((i: any) => i.purpose)).toEqual(["public", "vlan", "vpc"]);

  // Read only: not one write reached the API.
  expect(replay.requests.filter((r) => r.method !== "GET")).toEqual([]);
});
