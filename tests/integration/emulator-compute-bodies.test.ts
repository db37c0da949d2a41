import { computeFamily } from "../../emulator/routes/compute";
import { BASE_MS } from "../../emulator/timing";
import { useComputeEmulator, I, PASS } from "../helpers/compute-calls";
import { call } from "../helpers/emulator";

/**
 * The compute family read through the contract (api/contract/instances.ts, instance-actions.ts, backups.ts,
 * configs.ts, interfaces.ts, disks.ts): what each body's schema refuses, with the API's texts, before the account's
 * state is asked; and what the family's records must hold between them (its `references`).
 */

const { emu, tick, create, deployed } = useComputeEmulator();

/** The error items of a request the API refuses with 400. */
async function refused(method: string, path: string, body: unknown): Promise<Array<{ field?: string; reason: string }>> {
  const r = await call(emu(), method, path, { body });
  expect([method, path, r.status]).toEqual([method, path, 400]);
  return r.body.errors;
}

describe("a body's shape is refused by its schema, naming each field", () => {
  test("an instance's create and update", async () => {
    const inst = await deployed();
    const base = { region: "us-east", type: "c1-nano-1" };
    expect(await refused("POST", "/compute/instances", { ...base, metadata: "x" })).toEqual([
      { field: "metadata", reason: "Must be an object: { user_data }" },
    ]);
    expect(await refused("POST", "/compute/instances", { ...base, authorized_users: ["admin", 7] })).toEqual([
      { field: "authorized_users[1]", reason: "Must be a string" },
    ]);
    expect(await refused("POST", "/compute/instances", { ...base, tags: ["web", 5] })).toEqual([
      { field: "tags[1]", reason: "Must be an array of tags of 3 to 50 characters" },
    ]);
    // Every refusal of the body at once, those between its fields too (root_pass for an image).
    expect(await refused("POST", "/compute/instances", { ...base, image: "compute/debian12", swap_size: -1 })).toEqual([
      { field: "swap_size", reason: "Must be a whole number of MB, 0 or more" },
      { field: "root_pass", reason: "root_pass is required when deploying from an image or a script" },
    ]);
    expect(await refused("PUT", I(inst.id), { backups: { schedule: "Monday" } })).toEqual([
      { field: "backups.schedule", reason: "Must be an object: { day, window }" },
    ]);
  });

  test("an interface's fields: primary a boolean, ipv4 an object, ip_ranges a list, purpose required", async () => {
    const inst = await deployed();
    const body = (interfaces: unknown[]) => ({ region: "us-east", type: "c1-nano-1", image: "compute/debian12", root_pass: PASS, interfaces });
    expect(await refused("POST", "/compute/instances", body([{ purpose: "public", primary: "yes" }]))).toEqual([
      { field: "interfaces[0].primary", reason: "Must be a boolean" },
    ]);
    expect(await refused("POST", "/compute/instances", body([{ purpose: "vpc", subnet_id: 1, ipv4: "10.0.0.2" }]))).toEqual([
      { field: "interfaces[0].ipv4", reason: "Must be an object: { vpc, nat_1_1 }" },
    ]);
    expect(await refused("POST", "/compute/instances", body([{ primary: true }]))).toEqual([{ field: "interfaces[0].purpose", reason: "purpose is required" }]);
    const cfg = (await call(emu(), "GET", `${I(inst.id)}/configs`)).body.data[0];
    expect(await refused("POST", `${I(inst.id)}/configs/${cfg.id}/interfaces`, { purpose: "vpc", subnet_id: 1, ip_ranges: "10.0.0.0/28" })).toEqual([
      { field: "ip_ranges", reason: "Must be an array of IPv4 CIDR ranges" },
    ]);
  });

  test("a profile's helpers and memory limit; a rescue's volumes", async () => {
    const inst = await deployed();
    expect(await refused("POST", `${I(inst.id)}/configs`, { label: "p", devices: {}, helpers: { distro: false, fast: true }, memory_limit: -1 })).toEqual([
      { field: "helpers", reason: "Unknown helper fast" },
      { field: "memory_limit", reason: "Must be a whole number of MB, 0 or more" },
    ]);
    expect(await refused("POST", `${I(inst.id)}/rescue`, { devices: { sda: { volume_id: 4 } } })).toEqual([
      { field: "devices.sda.volume_id", reason: "Volume 4 not found" },
    ]);
  });

  test("the actions' fields: a clone's region and lists, a mutate's flag, a restore's overwrite", async () => {
    const inst = await deployed({ backups_enabled: true });
    expect(await refused("POST", `${I(inst.id)}/clone`, { region: 5, type: "c1-standard-2", disks: "all" })).toEqual([
      { field: "region", reason: "Must be a string" },
      { field: "disks", reason: "Must be an array of disk ids" },
    ]);
    expect(await refused("POST", `${I(inst.id)}/mutate`, { allow_auto_disk_resize: "no" })).toEqual([
      { field: "allow_auto_disk_resize", reason: "Must be a boolean" },
    ]);
    const snap = (await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "s" } })).body;
    tick(BASE_MS.snapshot);
    expect(await refused("POST", `${I(inst.id)}/backups/${snap.id}/restore`, { compute_id: inst.id, overwrite: "yes" })).toEqual([
      { field: "overwrite", reason: "Must be a boolean" },
    ]);
    expect(await refused("POST", `${I(inst.id)}/backups`, { label: 5 })).toEqual([{ field: "label", reason: "Label must be a string" }]);
  });

  test("a disk's password: a string of 7 to 128 characters", async () => {
    const inst = await deployed();
    const disk = (await call(emu(), "GET", `${I(inst.id)}/disks`)).body.data[0];
    expect(await refused("POST", `${I(inst.id)}/disks/${disk.id}/password`, { password: 12345678 })).toEqual([
      { field: "password", reason: "Must be a string of 7 to 128 characters" },
    ]);
    expect(await refused("POST", `${I(inst.id)}/disks/${disk.id}/password`, {})).toEqual([
      { field: "password", reason: "password is required: a string of 7 to 128 characters" },
    ]);
  });

  test("a public interface's update takes primary; fields the update has not are ignored, as the API ignores unknown fields", async () => {
    const inst = await deployed({ interfaces: [{ purpose: "public" }] });
    const cfg = (await call(emu(), "GET", `${I(inst.id)}/configs`)).body.data[0];
    const pub = cfg.interfaces[0];
    const r = await call(emu(), "PUT", `${I(inst.id)}/configs/${cfg.id}/interfaces/${pub.id}`, { body: { primary: true, label: "ignored" } });
    expect([r.status, r.body.primary, r.body.label]).toEqual([200, true, null]);
  });
});

describe("the compute records' references", () => {
  test("a profile's, disk's and backup's instance, a profile's disks and subnets, a backup's disks, an instance's type", async () => {
    const inst = await deployed({ backups_enabled: true });
    await call(emu(), "POST", `${I(inst.id)}/backups`, { body: { label: "s" } });
    const empty = await create({ region: "us-east", type: "c1-nano-1", label: "no-disks" });
    expect(computeFamily.references?.(emu().store)).toEqual([]);
    const data = structuredClone(emu().store.data);
    data.configs[0].devices.sdc = { disk_id: 999, volume_id: null };
    data.configs[0].interfaces.push({
      id: 1,
      purpose: "vpc",
      label: null,
      ipam_address: null,
      primary: false,
      subnet_id: 77,
      vpc_id: 7,
      ipv4: { vpc: "10.0.0.2", nat_1_1: null },
      ip_ranges: [],
    });
    data.disks[0].compute_id = empty.body.id + 1000;
    data.backups[0]._source.configs[0].devices.sdd = { disk_id: 998, volume_id: null };
    data.instances[1].type = "c9-none";
    expect(computeFamily.references?.({ data })).toEqual([
      { field: "records.instances[1].type", reason: "no type c9-none in the catalogue" },
      { field: "records.disks[0].compute_id", reason: `no instance ${empty.body.id + 1000}` },
      { field: "records.configs[0].devices.sda.disk_id", reason: `no disk ${data.configs[0].devices.sda?.disk_id} of instance ${inst.id}` },
      { field: "records.configs[0].devices.sdc.disk_id", reason: `no disk 999 of instance ${inst.id}` },
      { field: "records.configs[0].interfaces[0].subnet_id", reason: "no subnet 77" },
      { field: "records.backups[0]._source.configs[0].devices.sdd.disk_id", reason: "no disk 998 in the backup" },
    ]);
  });
});
