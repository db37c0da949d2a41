/**
 * What the preview says of inputs the API refuses, as a review of the provider from its docs found them (issue 52):
 * refused at preview by the contract's schemas (an interface's addresses and ranges, a VLAN's label, a date its month
 * has not, two keys in one, control characters in free text), and said plainly, the property named once (no zod
 * words, no `label: Label ...`).
 */
import type { Emulator } from "../../emulator/server";
import { definitionOf } from "../../provider/registry";
import { call, emulator, useEmulator } from "../helpers/emulator";

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
  await useEmulator(emu);
});
afterAll(async () => {
  await emu.close();
});

/** The reasons the check of a `type` gives for these inputs, by property. */
async function reasons(type: string, news: Record<string, unknown>): Promise<string[]> {
  const { failures } = await definitionOf(type).provider.check({}, { __resourceName: "r", ...news });
  return failures.map((f) => f.reason);
}

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINNGSGOUj+xUx2+sJzQ7ZxOFJwhk7EsCze6Ae+LDb5HD deploy@example.com";
const instance = { region: "us-east", type: "c1-standard-2" };

describe("the preview refuses what the API refuses", () => {
  test("an interface's VPC address, 1:1 NAT, ranges, VLAN address and label", async () => {
    const vpc = { purpose: "vpc", subnetId: 1 };
    expect(await reasons("Instance", { ...instance, image: "compute/debian12", interfaces: [{ ...vpc, ipv4: { vpc: "abc" } }] })).toEqual([
      "interfaces[0].ipv4.vpc: must be an IPv4 address, for example 10.0.0.2",
    ]);
    expect(await reasons("Interface", { computeId: 1, configId: 2, ...vpc, ipv4: { nat11: "maybe" }, ipRanges: ["foo"] })).toEqual([
      "ipv4.nat11: must be an IPv4 address or any (the API picks one)",
      'ipRanges[0]: "foo" is not an IPv4 CIDR range such as 10.0.1.16/28',
    ]);
    for (const ipamAddress of ["10.0.0.300/24", "10.0.0.1/33"]) {
      expect(await reasons("Interface", { computeId: 1, configId: 2, purpose: "vlan", label: "v", ipamAddress })).toEqual([
        "ipamAddress: must be an IPv4 address with a netmask, for example 10.0.0.1/24",
      ]);
    }
    expect(await reasons("Interface", { computeId: 1, configId: 2, purpose: "vlan", label: "v\u0000l" })).toEqual(["label: must not hold control characters"]);
  });

  test("a date its month has not, two keys in one, control characters in free text", async () => {
    expect(await reasons("Token", { scopes: "*", expiry: "2030-02-30T00:00:00" })).toEqual([
      "expiry: must be an ISO 8601 date-time, for example 2027-01-01T00:00:00Z",
    ]);
    expect(await reasons("SshKey", { sshKey: `${KEY}\n${KEY}` })).toEqual(["sshKey: must be one key, on one line"]);
    expect(await reasons("Vpc", { region: "us-east", description: "a\u0000b" })).toEqual(["description: must not hold control characters"]);
    expect(await reasons("Instance", { ...instance, group: "a\u0000b" })).toEqual(["group: must not hold control characters"]);
    expect(await reasons("Config", { computeId: 1, devices: {}, comments: "a\u0000b" })).toEqual(["comments: must not hold control characters"]);
  });
});

describe("the preview says a rule plainly, the property named once", () => {
  test("a value of another type, an unknown field, an id", async () => {
    expect(await reasons("Instance", { region: 5, type: "t", watchdogEnabled: "yes", alerts: { network_in: 5 } })).toEqual([
      "region: must be a string",
      "alerts: unknown field network_in",
      "watchdogEnabled: must be a boolean",
    ]);
    expect(await reasons("Vpc", { region: "us-east", label: 5 })).toEqual(["label: must be a string"]);
    expect(await reasons("SshKey", { sshKey: 12345 })).toEqual(["sshKey: must be a string"]);
    expect(await reasons("Disk", { computeId: "abc", size: 10 })).toEqual(["computeId: must be an id: a whole number, or its digits"]);
  });
});

describe("the emulator refuses them as the preview does (the same schemas)", () => {
  test("a VPC's description, an instance's group, a token's date, an SSH key of two lines", async () => {
    const vpc = await call(emu, "POST", "/vpcs", { body: { label: "net", region: "us-east", description: "a\u0000b" } });
    expect(vpc.body.errors).toEqual([{ field: "description", reason: "Description must not hold control characters" }]);
    const instance = await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", group: "a\u0000b" } });
    expect(instance.body.errors).toEqual([{ field: "group", reason: "Group must not hold control characters" }]);
    const token = await call(emu, "POST", "/profile/tokens", { body: { scopes: "*", expiry: "2030-02-30T00:00:00" } });
    expect(token.body.errors).toEqual([{ field: "expiry", reason: "Must be an ISO 8601 date-time" }]);
    const key = await call(emu, "POST", "/profile/sshkeys", { body: { ssh_key: `${KEY}\n${KEY}` } });
    expect(key.body.errors).toEqual([{ field: "ssh_key", reason: "Invalid SSH key: must be one key, on one line" }]);
  });
});
