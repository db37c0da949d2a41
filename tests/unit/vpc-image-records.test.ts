import { storedImage, imageFamily, type ImageRecord } from "../../emulator/routes/images";
import { storedSubnet, storedVpc, vpcFamily, type SubnetRecord, type VpcRecord } from "../../emulator/routes/vpc";
import { newUser, type CoreState } from "../../emulator/state";

/**
 * The VPC and image families' records as a state (a fixture) holds them: each by its schema (the contract's record
 * and the emulator's own fields), and what they hold between them (`references`), each refusal at its place.
 */

const T = "2026-01-02T03:04:05";
const vpcRec = (id: number, label: string, owner = "admin"): VpcRecord => ({
  id,
  label,
  description: "",
  region: "us-east",
  created: T,
  updated: T,
  _owner: owner,
});
const subnetRec = (id: number, vpc_id: number, label: string, ipv4: string): SubnetRecord => ({ id, vpc_id, label, ipv4, created: T, updated: T });
const imageRec = (over: Partial<ImageRecord> = {}): ImageRecord => ({
  id: "private/1",
  label: "golden",
  description: null,
  capabilities: [],
  created: T,
  updated: T,
  created_by: "admin",
  deprecated: false,
  eol: null,
  expiry: null,
  is_public: false,
  size: 1,
  status: "available",
  type: "manual",
  vendor: null,
  _owner: "admin",
  _queue: [],
  ...over,
});

/** A state of one user, `admin`, with these collections. */
function state(collections: { vpcs?: VpcRecord[]; subnets?: SubnetRecord[]; images?: ImageRecord[] }): { data: CoreState } {
  const data = {
    version: 1 as const,
    nextId: {},
    users: [newUser("admin", 1, false)],
    tokens: [],
    events: [],
    vpcs: [],
    subnets: [],
    images: [],
    ...collections,
  };
  return { data };
}

describe("stored records", () => {
  test("a subnet's range is held to the API's rules; a VPC has no field the contract and the emulator lack", () => {
    expect(storedSubnet.safeParse(subnetRec(1, 1, "a", "10.0.0.0/24")).success).toBe(true);
    const bad = storedSubnet.safeParse(subnetRec(1, 1, "a", "10.0.0.1/24"));
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["ipv4", "ipv4 must be in canonical form: 10.0.0.0/24"]]);
    expect(storedVpc.safeParse({ ...vpcRec(1, "net"), subnets: [] }).success).toBe(false);
  });

  test("an image is a private one, its steps of its statuses", () => {
    expect(storedImage.safeParse(imageRec({ _queue: [{ status: "available", at: 1, patch: { size: 2 } }] })).success).toBe(true);
    expect(storedImage.safeParse(imageRec({ id: "compute/debian12" })).success).toBe(false);
    expect(storedImage.safeParse({ ...imageRec(), tags: [] }).success).toBe(false);
  });
});

describe("references", () => {
  test("VPCs: their maker, unique labels; subnets: their VPC, and apart from their siblings", () => {
    const s = state({
      vpcs: [vpcRec(1, "net"), vpcRec(2, "net", "ghost")],
      subnets: [
        subnetRec(10, 1, "a", "10.0.0.0/16"),
        subnetRec(11, 1, "a", "10.0.5.0/24"),
        subnetRec(12, 2, "a", "10.0.5.0/24"),
        subnetRec(13, 3, "b", "10.1.0.0/24"),
      ],
    });
    expect(vpcFamily.references?.(s)).toEqual([
      { field: "records.vpcs[1]._owner", reason: "no user ghost in the account" },
      { field: "records.vpcs[1].label", reason: "Label must be unique among your VPCs" },
      { field: "records.subnets[1].label", reason: "Label must be unique among the VPC's subnets" },
      { field: "records.subnets[1].ipv4", reason: "ipv4 10.0.5.0/24 overlaps 10.0.0.0/16 of subnet a" },
      { field: "records.subnets[3].vpc_id", reason: "no VPC 3" },
    ]);
    expect(vpcFamily.references?.(state({ vpcs: [vpcRec(1, "net")], subnets: [subnetRec(10, 1, "a", "10.0.0.0/16")] }))).toEqual([]);
  });

  test("images: their owner; an upload waiting for its data has its URL", () => {
    const s = state({ images: [imageRec(), imageRec({ id: "private/2", _owner: "ghost" }), imageRec({ id: "private/3", status: "pending_upload" })] });
    expect(imageFamily({}).references?.(s)).toEqual([
      { field: "records.images[1]._owner", reason: "no user ghost in the account" },
      { field: "records.images[2]._upload", reason: "an image pending its upload has an upload URL" },
    ]);
  });
});
