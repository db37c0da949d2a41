/**
 * Exact previews through the plain CLI: one program (tests/programs/plans) in both forms. On the plugin,
 * `pulumi preview` plans exactly the steps `pulumi up` then makes (TestStack.upAsPlanned): a relabelled
 * key whose `created` a VPC's description uses updates the key alone; a resized instance whose VPC address
 * a database's allow list takes updates the instance alone; an allow-list change updates the database, and
 * a VPC whose description names the database's host stays as it is. The dynamic classes cannot answer at
 * preview (Pulumi's dynamic provider server plans an update's outputs as its inputs): the same changes
 * plan more updates than the up makes, as the README says with these figures.
 */
import type { Emulator } from "../../emulator/server";
import { ed25519Key, emulator, get } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(600_000);

let emu: Emulator;
let plugin: InstalledPlugin;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emu = await emulator();
  plugin = await installPlugin();
});
afterAll(async () => {
  for (const s of stacks) s.cleanup();
  plugin?.cleanup();
  await emu?.close();
});

function stackOf(form: "plugin" | "dynamic"): TestStack {
  const s = new TestStack("tests/programs/plans", `plans-${form}-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, form, publicKey: ed25519Key(61) },
    secrets: { "compute:token": emu.token, rootPass: "Plans-R00t-Pass!" },
    env: form === "plugin" ? plugin.env : {},
  });
  stacks.push(s);
  return s;
}

test("plugin: each change plans exactly the steps the up makes, outputs the change cannot alter stay known", async () => {
  const stack = stackOf("plugin");
  // A key whose `created` a VPC's description uses; two instances whose VPC addresses a database's allow
  // list takes; a VPC whose description names the database's host.
  const first = await stack.upAsPlanned({ config: { withDatabase: "true" } });
  expect(first.up.json.summary).toEqual({ create: 8 });
  const host = first.up.json.outputs.withDatabase.dbHost.primary;

  // A relabelled key: its `created` stays known, so the VPC that uses it is planned (and left) as it is.
  const relabel = await stack.upAsPlanned({ config: { withDatabase: "true", keyLabel: "plans-key-2" } });
  expect(relabel.up.json.steps).toEqual(["update key (compute:index:SshKey)"]);
  expect(relabel.preview.json.changeSummary).toEqual({ same: 7, update: 1 });
  expect(relabel.preview.stdout).not.toContain("04da6b54"); // no unknown value planned

  // Resizing one instance changes neither its VPC address nor the allow list: one update, planned as such.
  const c = { withDatabase: "true", keyLabel: "plans-key-2" };
  const resize = await stack.upAsPlanned({ config: { ...c, typeA: "c1-standard-4" } });
  expect(resize.up.json.steps).toEqual(["update app-a (compute:index:Instance)"]);

  // An allow-list change updates the database; its host, port and credentials stay known: the VPC that
  // names the host is planned as it is (terraform-provider-linode #2085).
  const allow = await stack.upAsPlanned({ config: { ...c, typeA: "c1-standard-4", extraAllow: "192.0.2.0/24" } });
  expect(allow.up.json.steps).toEqual(["update db (compute:index:MysqlDatabase)"]);
  expect(allow.up.json.outputs.withDatabase.downstreamDescription).toBe(`database at ${host}:3306`);
  const [mysql] = (await get(emu, "/databases/mysql/instances")).data;
  expect(mysql.allow_list).toHaveLength(3);

  await stack.ok("destroy");
});

test("dynamic classes: the same changes plan updates the up does not make (the figures the README gives)", async () => {
  const stack = stackOf("dynamic");
  await stack.ok("up", { config: { withDatabase: "true" } });
  const relabel = await stack.run("preview", { config: { withDatabase: "true", keyLabel: "plans-key-2" } });
  expect(relabel.json.changeSummary).toEqual({ same: 6, update: 2 }); // the key, and the VPC's description: [unknown]
  // The instance, then the database whose allow list takes its address, then the VPC naming the database's host.
  const resize = await stack.run("preview", { config: { withDatabase: "true", keyLabel: undefined, typeA: "c1-standard-4" } });
  expect(resize.json.changeSummary).toEqual({ same: 5, update: 3 });
  // The up of both changes makes two updates.
  const up = await stack.ok("up", { config: { withDatabase: "true", keyLabel: "plans-key-2", typeA: "c1-standard-4" } });
  expect(up.summary).toEqual({ same: 6, update: 2 });
  await stack.ok("destroy");
});
