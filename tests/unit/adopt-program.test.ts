/**
 * compute-adopt's parts (provider/adopt/): what it finds in an account (every resource type of the registry, in the
 * adoption fixture), the logical names it makes from labels, what the filters select, and the program it writes
 * (references to adopted parents, the schema's types, `protect`, YAML's literal `${`). tests/e2e/adopt.e2e.test.ts
 * adopts a whole account through the CLI in each language.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { PROGRAM_FILES, programText, selects, type Adoption } from "../../provider/adopt/adopt";
import { ApiError, type ApiClient } from "../../provider/transport/client";
import { discover, type Found } from "../../provider/adopt/discover";
import { clientFor } from "../../provider/transport/settings";
import { emulator } from "../helpers/emulator";
import { adoptionProgram, nameAll, nameOf, type Adopted, type ProgramSchema } from "../../provider/adopt/program";
import { specs } from "../../provider/registry";
import { exampleCode } from "../../scripts/generate/example-code";
import { packageSchema } from "../../scripts/generate/schema";

const schema = packageSchema(specs, "0.1.0") as unknown as ProgramSchema; // what compute-adopt parses it as (provider/adopt/adopt.ts)
const found = (type: string, id: string, label: string, more: Partial<Found> = {}): Found => ({ type, id, importId: id, label, ...more });

test("discovery finds every resource type of provider/registry.ts in the adoption fixture (a new type must be found, or said why not)", async () => {
  const fixture = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "adopt", "account.json"), "utf8"));
  const emu = await emulator({ fixture });
  try {
    const { found, unlisted } = await discover(clientFor({ apiUrl: emu.url, token: emu.token }, { tokenRequired: true }));
    expect(unlisted).toEqual([]);
    expect([...new Set(found.map((f) => f.type))].sort()).toEqual(specs.map((s) => s.type).sort());
    // Parents first: what a record refers to is declared before it.
    for (const f of found) if (f.parent) expect(found.indexOf(f.parent)).toBeLessThan(found.indexOf(f));
    expect(found.findIndex((f) => f.type === "Subnet")).toBeLessThan(found.findIndex((f) => f.type === "Interface"));
  } finally {
    await emu.close();
  }
});

describe("discovery when the account changes or the token may not read it all", () => {
  /** A client answering each list path from `lists` (a function throws the error it returns), recording what it is asked. */
  const fake = (lists: Record<string, unknown>) => {
    const asked: string[] = [];
    const answer = (path: string) => {
      asked.push(path);
      const a = lists[path];
      if (a instanceof ApiError) throw a;
      return a ?? [];
    };
    const client = {
      all: async (e: { path: string }, args: { params?: Record<string, string> }) =>
        answer(e.path.replace(/\{(\w+)\}/g, (_m, k: string) => args.params?.[k] ?? "")),
      call: async (e: { path: string }, args: { params?: Record<string, string> }) =>
        answer(e.path.replace(/\{(\w+)\}/g, (_m, k: string) => args.params?.[k] ?? "")),
    } as unknown as ApiClient;
    return { client, asked };
  };
  const instance = (id: number, label: string) => ({ id, label, region: "us-east", tags: [], image: null });

  test("a record deleted while its own lists are read is named, not adopted, and the reading goes on", async () => {
    const { client } = fake({
      "/compute/instances": [instance(1, "gone"), instance(2, "kept")],
      "/compute/instances/1/disks": new ApiError(404, [{ reason: "Not found" }], "GET", "/v4/compute/instances/1/disks"),
      "/compute/instances/1/backups": { automatic: [], snapshot: { current: null, in_progress: null } },
      "/compute/instances/2/backups": { automatic: [], snapshot: { current: null, in_progress: null } },
      "/vpcs": [{ id: 5, label: "net", region: "us-east" }],
      "/vpcs/5/subnets": new ApiError(403, [{ reason: "Unauthorized" }], "GET", "/v4/vpcs/5/subnets"),
    });
    const { found } = await discover(client);
    expect(found.map((f) => [f.type, f.id, f.reason])).toEqual([
      ["Vpc", "5", expect.stringMatching(/^what belongs to it could not be read: GET \/v4\/vpcs\/5\/subnets failed: HTTP 403/)],
      ["Instance", "1", "it was deleted while the account was read"],
      ["Instance", "2", undefined],
    ]);
  });

  test("a type the token may not list is named as such, when the filters select it; every type is listed for the names", async () => {
    const { client, asked } = fake({
      "/databases/mysql/instances": new ApiError(403, [{ reason: "Unauthorized" }], "GET", "/v4/databases/mysql/instances"),
      "/compute/instances/1/backups": { automatic: [], snapshot: { current: null, in_progress: null } },
    });
    const all = await discover(client);
    expect(all.unlisted).toEqual([{ type: "MysqlDatabase", reason: expect.stringContaining("HTTP 403") }]);
    asked.length = 0;
    expect(await discover(client, ["Instance"])).toEqual({ found: [], unlisted: [] });
    expect(asked).toContain("/databases/mysql/instances");
  });

  test("any other failure stops the reading (exit 2 at the command)", async () => {
    const { client } = fake({ "/vpcs": new ApiError(500, [{ reason: "boom" }], "GET", "/v4/vpcs") });
    await expect(discover(client)).rejects.toThrow("HTTP 500");
  });
});

describe("logical names", () => {
  test.each([
    ["Web_1.prod", "Instance", "web-1-prod"],
    ["ops laptop", "SshKey", "ops-laptop"],
    ["myDatabase", "MysqlDatabase", "my-database"],
    // A name must start with a letter and be no word of any language's (it names variables).
    ["1st", "Instance", "instance-1st"],
    ["import", "Vpc", "vpc-import"],
    ["compute", "Instance", "instance-compute"],
    ["type", "Disk", "disk-type"],
    ["---", "Disk", "disk"],
    // What a language predeclares: a variable of that name breaks the program (TypeScript's require, Go's nil).
    ["require", "Vpc", "vpc-require"],
    ["exports", "Vpc", "vpc-exports"],
    ["arguments", "Vpc", "vpc-arguments"],
    ["nil", "Vpc", "vpc-nil"],
    ["string", "Vpc", "vpc-string"],
    ["error", "Vpc", "vpc-error"],
    ["private", "Vpc", "vpc-private"],
    ["public", "Vpc", "vpc-public"],
  ])("%s (%s) is %s", (label, type, name) => expect(nameOf(label, type)).toBe(name));

  test("a child's name starts with its parent's, and every name is the program's only one, a clash taking the record's id", () => {
    const web = found("Instance", "1", "web");
    const web2 = found("Instance", "7", "web");
    const records = [
      web,
      found("Disk", "3", "root", { parent: web }),
      web2,
      found("Disk", "4", "root", { parent: web2 }),
      found("Disk", "5", "web-root", { parent: web }),
    ];
    expect([...nameAll(records).values()]).toEqual(["web", "web-root", "web-7", "web-7-root", "web-root-5"]);
  });

  test("names that one language's variables would make one are told apart (web-12 and web-1-2 are web12 in TypeScript and Go)", () => {
    const records = [found("Instance", "8", "web-12"), found("Instance", "9", "web-1-2"), found("SshKey", "3", "laptop"), found("SshKey", "4", "laptop2")];
    expect([...nameAll(records).values()]).toEqual(["web-12", "web-1-2-9", "laptop", "laptop2"]);
  });

  test("a name stays when another record of its label comes or goes, but for the first of that label", () => {
    const keys = [found("SshKey", "1", "k"), found("SshKey", "2", "k"), found("SshKey", "3", "k")];
    expect([...nameAll(keys).values()]).toEqual(["k", "k-2", "k-3"]);
    expect([...nameAll([keys[0], keys[2]]).values()]).toEqual(["k", "k-3"]);
  });
});

describe("filters", () => {
  const db = found("Instance", "1", "db-1", { region: "us-east", tags: ["team:data"] });
  test.each([
    [{}, true],
    [{ regions: ["us-east"] }, true],
    [{ regions: ["eu-central"] }, false],
    [{ tags: ["team:web", "team:data"] }, true],
    [{ tags: ["team:web"] }, false],
    [{ labels: ["db-*"] }, true],
    [{ labels: ["DB-?"] }, true],
    [{ labels: ["db"] }, false],
    [{ labels: ["d.-1"] }, false],
    [{ types: ["Vpc"] }, false],
    [{ regions: ["us-east"], tags: ["team:web"] }, false],
  ])("%j selects db-1: %s", (filters, selected) => expect(selects(db, filters)).toBe(selected));
  test("a record without the attribute a filter reads is not selected by it", () => {
    expect(selects(found("SshKey", "1", "key"), { regions: ["us-east"] })).toBe(false);
  });
});

describe("the program", () => {
  const instance: Adopted = {
    ...found("Instance", "7", "db-1"),
    name: "db-1",
    inputs: { region: "us-east", type: "g6-standard-1", label: "db-1", alerts: { cpu: 90 }, backupSchedule: {} },
  };
  const disk: Adopted = { ...found("Disk", "8", "root", { parent: instance }), name: "db-1-root", inputs: { computeId: 7, label: "root", size: 8192 } };
  const config: Adopted = {
    ...found("Config", "9", "boot", { parent: instance }),
    name: "db-1-boot",
    inputs: { computeId: 7, label: "boot", devices: { sda: { diskId: 8 }, sdb: { diskId: 99 } } },
  };
  const iface: Adopted = {
    ...found("Interface", "10", "vpc", { parent: config }),
    name: "db-1-boot-vpc",
    inputs: { computeId: 7, configId: 9, purpose: "vpc", subnetId: 4 },
  };
  const key: Adopted = { ...found("SshKey", "3", "k"), name: "key", inputs: { label: "k", sshKey: "ssh-ed25519 AAAA a ${HOME} b $$ $5 end$" } };
  const program = adoptionProgram([instance, disk, config, iface, key], schema, { protect: true });
  const code = exampleCode(program);

  test("an adopted record's id is a reference to it; another id stays the number it is", () => {
    expect(code.typescript).toContain("computeId: db1.id,");
    expect(code.typescript).toContain("sda: { diskId: db1Root.id }");
    expect(code.typescript).toContain("sdb: { diskId: 99 }");
    expect(code.typescript).toContain("configId: db1Boot.id,");
    expect(code.typescript).toContain("subnetId: 4,");
    expect(code.go).toContain("ComputeId: db1.ID(),");
    expect(code.python).toContain("compute_id=db_1.id,");
    expect(code.yaml).toContain("computeId: ${db-1.id}");
  });

  test("objects and maps of the schema's types in each language", () => {
    expect(code.python).toContain("devices={");
    expect(code.python).toContain('"sda": compute.ConfigDeviceArgs(disk_id=db_1_root.id)');
    expect(code.go).toMatch(/Alerts: +&compute.InstanceAlertsArgs{Cpu: pulumi.Int\(90\)},/);
    expect(code.typescript).toContain("backupSchedule: {},");
    expect(code.yaml).toContain("backupSchedule: {}");
  });

  test("each resource protected, as `pulumi import` protects it; none with --no-protect", () => {
    expect(code.typescript.match(/\{ protect: true \}\);/g)).toHaveLength(5);
    expect(code.python.match(/opts=pulumi\.ResourceOptions\(protect=True\),/g)).toHaveLength(5);
    expect(code.go.match(/\}, pulumi\.Protect\(true\)\)/g)).toHaveLength(5);
    expect(code.yaml.match(/ {4}options:\n {6}protect: true\n/g)).toHaveLength(5);
    const unprotected = exampleCode(adoptionProgram([key], schema, { protect: false }));
    expect(Object.values(unprotected).join("\n")).not.toMatch(/protect/i);
  });

  test("a literal $ is written $$ in YAML (which reads ${...} as an interpolation and $$ as $), as it is elsewhere", () => {
    expect(code.yaml).toContain('sshKey: "ssh-ed25519 AAAA a $${HOME} b $$$$ $$5 end$$"');
    expect(code.typescript).toContain('sshKey: "ssh-ed25519 AAAA a ${HOME} b $$ $5 end$"');
  });

  test("YAML quotes what it would read as a number, a boolean or null; Go escapes a byte order mark", () => {
    const labels = ["0x10", "1e3", "0o17", "1_000", "1.", "-5", "y", "N", "~", "10.0.1.0/24", "web-1"];
    const keys = labels.map((l, i): Adopted => ({ ...found("SshKey", String(i), l), name: `k${i}`, inputs: { label: l } }));
    const out = exampleCode(adoptionProgram(keys, schema, { protect: false }));
    expect(labels.map((l) => out.yaml.includes(`label: ${l}\n`))).toEqual(labels.map((l) => l === "10.0.1.0/24" || l === "web-1"));
    const bom = exampleCode(adoptionProgram([{ ...found("SshKey", "1", "\ufeffbom"), name: "k", inputs: { label: "\ufeffbom" } }], schema, { protect: false }));
    expect(bom.go).toContain('pulumi.String("\\uFEFFbom")');
    expect(bom.go).not.toContain("\ufeff");
  });

  test("a YAML program names the plugin's version and release once, as the import file does; the SDKs' programs do not", () => {
    const adoption: Adoption = { adopted: [instance, disk], notAdopted: [], leftOut: 0, unlisted: [], importFile: { resources: [] } };
    const yaml = programText(adoption, "yaml", "0.1.0", { protect: true });
    expect(yaml.match(/ {6}version: "0\.1\.0"\n {6}pluginDownloadURL: "https:\/\/github\.com\/[^"]+\/v0\.1\.0\/"\n/g)).toHaveLength(1);
    expect(yaml.indexOf("version:")).toBeLessThan(yaml.indexOf("db-1-root:"));
    expect(programText(adoption, "typescript", "0.1.0", { protect: true })).not.toContain("version");
    expect(PROGRAM_FILES.yaml).toBe("Main.yaml");
  });
});
