import type { Emulator } from "../../emulator/server";
import { getImage, getImages, getKernel, getKernels, getRegion, getRegions, getType, getTypes } from "../../sdk/reference";
import { emulator } from "../helpers/emulator";

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

test("lists read every page and come back in camelCase", async () => {
  const o = { apiUrl: emu.url };
  const regions = await getRegions(o);
  expect(regions.map((r) => r.id)).toContain("us-east");
  const types = await getTypes(o);
  const std = types.find((t) => t.id === "c1-standard-2")!;
  expect(std).toMatchObject({ class: "standard", networkOut: 2000, successor: "c2-standard-2" });
  expect(std.addons.backups.regionPrices[0]).toEqual({ id: "ap-south", hourly: expect.any(Number), monthly: expect.any(Number) });
  expect((await getKernels(o)).map((k) => k.id)).toContain("compute/latest-64bit");
  expect((await getImages(o)).every((i) => i.isPublic)).toBe(true);
  // No token was needed for any of it.
  expect(emu.log.every((l) => l.status === 200)).toBe(true);
});

test("single lookups, with slash ids, and a clear error when missing", async () => {
  const o = { apiUrl: emu.url };
  expect((await getRegion("eu-central", o)).capabilities).toContain("Metadata");
  expect((await getType("c1-nano-1", o)).class).toBe("nanode");
  expect((await getKernel("compute/grub2", o)).label).toBe("GRUB 2");
  expect((await getImage("compute/debian12", o)).createdBy).toBe("compute");
  await expect(getRegion("mars-1", o)).rejects.toThrow("region mars-1 not found");
});

test("without an API URL the error says how to set one", async () => {
  const saved = process.env.COMPUTE_API_URL;
  delete process.env.COMPUTE_API_URL;
  try {
    await expect(getRegions()).rejects.toThrow(/compute:apiUrl.*COMPUTE_API_URL/);
  } finally {
    if (saved !== undefined) process.env.COMPUTE_API_URL = saved;
  }
});
