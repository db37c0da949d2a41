import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { imageProvider as imgP } from "../../provider/resources/image";
import { instanceProvider as instP } from "../../provider/resources/instance";
import { call, get, list } from "../helpers/emulator";
import { make, useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite();
const PASS = "Str0ng-Passw0rd!";
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "img-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("Image", () => {
  test("from a disk: waits until available; label and description in place", async () => {
    const inst = await make(instP, { region: "us-east", type: "c1-standard-2", image: "compute/debian12", rootPass: PASS, label: "src" });
    const [disk] = await list(emu, `/compute/instances/${inst.id}/disks`);
    const img = await make(imgP, { diskId: String(disk.id), description: "golden", __resourceName: "golden" });
    expect(img.id).toMatch(/^private\/\d+$/);
    expect(img.outs).toMatchObject({
      status: "available",
      label: expect.stringMatching(/^golden-[0-9a-f]{7}$/),
      description: "golden",
      isPublic: false,
      // Once captured, an image is as large as its data: here the debian12 image the disk was deployed from.
      size: (await call(emu, "GET", "/images/compute/debian12")).body.size,
    });
    const u = await imgP.update(img.id, img.outs, { diskId: disk.id, label: "golden", description: "v2" });
    expect(u.outs).toMatchObject({ label: "golden", description: "v2" });
    const r = await imgP.read(img.id, u.outs);
    expect(r.props).toMatchObject({ label: "golden", description: "v2" });
    await imgP.delete(img.id, u.outs);
    expect(await imgP.read(img.id, u.outs)).toEqual({});
  });

  test("from a file: compressed when it is not gzip, its hash kept; a changed file makes a new image", async () => {
    const file = path.join(dir, "disk.img");
    writeFileSync(file, Buffer.alloc(200_000, 3));
    const img = await make(imgP, { file, region: "us-east", label: "uploaded" });
    expect(img.outs).toMatchObject({ status: "available", label: "uploaded", fileHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await get(emu, `/images/${img.id}`)).size).toBe(1);
    // Same file: no change. Changed content: replaced.
    expect((await imgP.diff(img.id, img.outs, (await imgP.check({}, { file, region: "us-east", label: "uploaded" })).inputs)).changes).toBe(false);
    writeFileSync(file, Buffer.alloc(200_000, 4));
    const d = await imgP.diff(img.id, img.outs, (await imgP.check({}, { file, region: "us-east", label: "uploaded" })).inputs);
    expect(d.replaces).toEqual(["fileHash"]);
    // An already-gzipped file is sent as it is.
    const gz = path.join(dir, "disk.img.gz");
    writeFileSync(gz, gzipSync(Buffer.alloc(1000)));
    expect((await make(imgP, { file: gz, region: "us-east", label: "gz" })).outs.status).toBe("available");
  });

  test("check: one source, upload needs region and label, the file must exist", async () => {
    expect((await imgP.check({}, {})).failures[0].reason).toMatch(/either diskId .* or file/);
    expect((await imgP.check({}, { file: path.join(dir, "nope"), region: "us-east", label: "x" })).failures[0]).toMatchObject({
      property: "file",
      reason: expect.stringMatching(/not a readable file/),
    });
    expect((await imgP.check({}, { file: "x" })).failures.map((f) => f.property).sort()).toEqual(["region"]);
  });

  test("check: the label and the description by the rules the API refuses with (api/contract/images.ts)", async () => {
    const reasons = async (inputs: Record<string, unknown>) => (await imgP.check({}, { diskId: 1, ...inputs })).failures.map((f) => f.reason);
    expect(await reasons({ label: "bell\u0007" })).toEqual(["label: must not hold control characters"]);
    expect(await reasons({ label: "x", description: "" })).toEqual(["description: must be 1 to 65000 characters (got 0)"]);
    expect(await reasons({ label: "x", description: "nul\u0000" })).toEqual(["description: must not hold control characters"]);
    expect(await reasons({ label: "x", description: "line one\n\tline two" })).toEqual([]);
  });

  test("a refused upload leaves no image behind", async () => {
    await emu.restart({ images: { maxUploadBytes: 1000 } });
    const file = path.join(dir, "big.gz");
    writeFileSync(file, gzipSync(randomBytes(50_000)));
    const err = await make(imgP, { file, region: "us-east", label: "big" }).catch((e) => e);
    expect(err.message).toMatch(/cannot create image: .*(413|refused|EPIPE|reset|socket)/i);
    expect((await list(emu, "/images")).filter((i) => !i.is_public)).toEqual([]);
  });
});
