import { DEVICE_SLOTS } from "../../api/interfaces";
import { databaseSnapshotLabelError, instanceLabelError, vpcLabelError } from "../../api/labels";
import { addressOrRangeError, ipamAddressError, ipv4Span, ipv4SpansOverlap, readIpv4Range, subnetIpv4Error } from "../../api/network";
import { rootPasswordError, WEAK_PASSWORD_TEXT } from "../../api/passwords";
import { parseScopes, SCOPE_GROUPS } from "../../api/scopes";
import { sshKeyError, SSH_KEY_TYPES } from "../../api/ssh-keys";
import { checkLength, labelBounds, LENGTH_LIMITS } from "../../api/text";
import { interfaceList } from "../../api/contract/interfaces";

/** The first refusal of a list of interfaces (api/contract/interfaces.ts), as the API places it: `{ index?, field, reason }`. */
function checkInterfaces(list: unknown[], allowEmpty: boolean) {
  const r = interfaceList(allowEmpty).safeParse(list);
  if (r.success) return undefined;
  const { path, message: reason } = r.error.issues[0];
  return path.length === 0 ? { field: "interfaces", reason } : { index: path[0], field: path.slice(1).join("."), reason };
}

/** An OpenSSH public key line whose blob holds `type` (SSH wire format) and `extra` bytes of key material. */
function keyLine(type: string, extra = 32, blobType = type): string {
  const name = Buffer.from(blobType, "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(name.length);
  return `${type} ${Buffer.concat([len, name, Buffer.alloc(extra, 7)]).toString("base64")} me@host`;
}

describe("api facts: lengths", () => {
  // compute-api.md "Limits": "Config label | 1..48 chars", "Disk label | 1..48 chars", "Snapshot label | 1..255 chars".
  it("accepts lengths within the row's bounds, bounds included", () => {
    expect(checkLength("a", "configLabel")).toBeUndefined();
    expect(checkLength("a".repeat(48), "diskLabel")).toBeUndefined();
    expect(checkLength("a".repeat(255), "snapshotLabel")).toBeUndefined();
  });
  it("rejects lengths outside the row's bounds, saying the bounds and the length", () => {
    expect(checkLength("", "configLabel")).toBe("must be 1 to 48 characters (got 0)");
    expect(checkLength("a".repeat(49), "diskLabel")).toBe("must be 1 to 48 characters (got 49)");
  });
  // profile-api.md "Limits": "SSH key label | at most 64 chars" (least 0: no lower bound).
  it("says 'at most' when there is no lower bound", () => {
    expect(checkLength("", "sshKeyLabel")).toBeUndefined();
    expect(checkLength("a".repeat(65), "sshKeyLabel")).toBe("must be at most 64 characters (got 65)");
  });
  // Each bound, with the spec row it comes from (docs/spec-gaps.md for image labels), taken at its edges.
  it("holds the spec's bounds", () => {
    const rows: Record<keyof typeof LENGTH_LIMITS, string> = {
      instanceLabel: 'compute-api.md "Limits": Instance label | 3..64 chars',
      configLabel: 'compute-api.md "Limits": Config label | 1..48 chars',
      diskLabel: 'compute-api.md "Limits": Disk label | 1..48 chars',
      snapshotLabel: 'compute-api.md "Limits": Snapshot label | 1..255 chars',
      vpcLabel: 'compute-api.md "Limits": VPC and subnet label | 1..64 chars',
      rootPass: 'compute-api.md "Limits": root_pass | 7..128 chars',
      interfaceLabel: 'compute-api.md "Interface": label | string or null, 1..64',
      imageLabel: 'docs/spec-gaps.md "Image labels": 1..128 characters',
      imageDescription: 'compute-api.md "Limits": Image description | 1..65000 chars',
      databaseLabel: 'databases-api.md "Limits": Database label | 3..32 chars',
      tokenLabel: 'profile-api.md "Limits": Token label | 1..100 chars',
      databaseSnapshotLabel: 'databases-api.md "Limits": Snapshot label | 1..30 chars',
      vpcDescription: 'compute-api.md "Limits": VPC description | at most 255 chars',
      scriptData: 'compute-api.md "Limits": script_data | at most 65535 chars',
      preferences: 'profile-api.md "Limits": Preferences body | at most 65535 characters',
      sshKeyLabel: 'profile-api.md "Limits": SSH key label | at most 64 chars',
      tag: "docs/spec-gaps.md (the real API's): a tag is 3..50 characters",
    };
    for (const [limit, row] of Object.entries(rows) as Array<[keyof typeof LENGTH_LIMITS, string]>) {
      const [, least = "0", most] = /(?:(\d+)\.\.|at most )(\d+)/.exec(row)!;
      expect([limit, ...LENGTH_LIMITS[limit]]).toEqual([limit, Number(least), Number(most)]);
      expect(checkLength("x".repeat(Number(most)), limit)).toBeUndefined();
      expect(checkLength("x".repeat(Number(most) + 1), limit)).toMatch(/^must be /);
      if (Number(least) > 0) expect(checkLength("x".repeat(Number(least) - 1), limit)).toMatch(/^must be /);
    }
    expect(Object.keys(rows).sort()).toEqual(Object.keys(LENGTH_LIMITS).sort());
  });
  // Auto-naming fits a made label in the row's bounds; a made label is never empty.
  it("gives a label's bounds to auto-naming, at least one character", () => {
    expect(labelBounds("instanceLabel")).toEqual({ min: 3, max: 64 });
    expect(labelBounds("sshKeyLabel")).toEqual({ min: 1, max: 64 });
  });
});

describe("api facts: database snapshot labels", () => {
  // databases-api.md "Limits": "Snapshot label | 1..30 chars"; "Database backup": "ASCII letters and digits only".
  it("takes 1 to 30 ASCII letters and digits", () => {
    expect(databaseSnapshotLabelError("nightly2")).toBeUndefined();
    expect(databaseSnapshotLabelError("a".repeat(31))).toBe("must be 1 to 30 characters (got 31)");
    expect(databaseSnapshotLabelError("night-ly")).toBe("must use only ASCII letters and digits");
    expect(databaseSnapshotLabelError("nüchtern")).toBe("must use only ASCII letters and digits");
  });
});

describe("api facts: instance labels", () => {
  // compute-api.md "Compute instance": "label | string, 3..64 chars"; "Limits": "Instance label | 3..64 chars".
  it("takes 3 to 64 characters", () => {
    expect(instanceLabelError("web")).toBeUndefined();
    expect(instanceLabelError("a".repeat(64))).toBeUndefined();
    expect(instanceLabelError("ab")).toBe("must be 3 to 64 characters (got 2)");
    expect(instanceLabelError("a".repeat(65))).toBe("must be 3 to 64 characters (got 65)");
  });
  // compute-api.md "Compute instance": "the list of constraints on instance labels: not shown" (docs/spec-gaps.md:
  // ASCII letters, digits, '-', '_', '.', starting and ending with a letter or digit, no two separators in a row).
  it("takes ASCII letters, digits, '-', '_' and '.', starting and ending with a letter or digit", () => {
    expect(instanceLabelError("web-1_a.b")).toBeUndefined();
    const chars = "must use only ASCII letters, digits, '-', '_' and '.', and start and end with a letter or digit";
    expect(instanceLabelError("-web")).toBe(chars);
    expect(instanceLabelError("web.")).toBe(chars);
    expect(instanceLabelError("web 1")).toBe(chars);
    expect(instanceLabelError("wéb")).toBe(chars);
  });
  it("refuses two separators in a row", () => {
    expect(instanceLabelError("web--1")).toBe("must not have two of '-', '_' or '.' in a row");
    expect(instanceLabelError("web._1")).toBe("must not have two of '-', '_' or '.' in a row");
  });
});

describe("api facts: root passwords", () => {
  // compute-api.md "Instances", Create body: "root_pass | string 7..128"; "Limits": "root_pass | 7..128 chars".
  it("takes 7 to 128 characters", () => {
    expect(rootPasswordError("Ab1!xyz")).toBeUndefined();
    expect(rootPasswordError("Ab1" + "x".repeat(125))).toBeUndefined();
    expect(rootPasswordError("Ab1!xy")).toBe("must be 7 to 128 characters (got 6)");
    expect(rootPasswordError("Ab1" + "x".repeat(126))).toBe("must be 7 to 128 characters (got 129)");
  });
  // compute-api.md "Instances" rule 7: "an insufficient password strength returns the error text
  // `Password does not meet strength requirement`" (the score: api/passwords.ts, tests/unit/passwords.test.ts).
  it("refuses a weak password with the spec's text alone", () => {
    expect(WEAK_PASSWORD_TEXT).toBe("Password does not meet strength requirement");
    for (const weak of ["abcdefgh1", "ABCDEFGH", "Password123!", "qwerty123"]) expect([weak, rootPasswordError(weak)]).toEqual([weak, WEAK_PASSWORD_TEXT]);
    for (const strong of ["abcDEF12", "b4d_p455", "R34lBAdP455", "teh83fx4tkoy4tfjzfycyhjk1b307op0ls7h1b3bt8kzxbngadj72jtomtjpybul"]) {
      expect([strong, rootPasswordError(strong)]).toEqual([strong, undefined]);
    }
  });
});

describe("api facts: SSH public keys", () => {
  // profile-api.md "SSH key": "`ssh_key` (string, public key) ... The list of accepted key formats: not shown."
  // (docs/spec-gaps.md "Accepted SSH key formats": `<type> <base64> [comment]`, the blob starting with the same type.)
  it("accepts an OpenSSH key line of a known type, with or without a comment", () => {
    expect(sshKeyError(keyLine("ssh-ed25519"))).toBeUndefined();
    expect(sshKeyError(keyLine("ecdsa-sha2-nistp256", 64).replace(/ me@host$/, ""))).toBeUndefined();
    expect(SSH_KEY_TYPES.join(" ")).toBe(
      "ssh-rsa ssh-dss ssh-ed25519 ecdsa-sha2-nistp256 ecdsa-sha2-nistp384 ecdsa-sha2-nistp521 sk-ssh-ed25519@openssh.com sk-ecdsa-sha2-nistp256@openssh.com",
    );
  });
  it("refuses other shapes, types and blobs", () => {
    expect(sshKeyError("ssh-ed25519")).toMatch(/^must be an OpenSSH public key: "<type> <base64 key> \[comment\]"/);
    expect(sshKeyError(keyLine("ssh-foo"))).toMatch(/^key type "ssh-foo" is not supported; use one of ssh-rsa, /);
    expect(sshKeyError("ssh-ed25519 not*base64")).toBe("the key data is not valid base64");
    expect(sshKeyError("ssh-ed25519 AAA=")).toBe("the key data is too short");
    expect(sshKeyError(keyLine("ssh-ed25519", 32, "ssh-rsa"))).toBe("the key data does not hold a ssh-ed25519 key");
    expect(sshKeyError(keyLine("ssh-ed25519", 8))).toBe("the key data is too short");
  });
});

describe("api facts: OAuth scopes", () => {
  // compute-api.md "Authentication" 2: "OAuth tokens are limited by scopes of the form `<group>:read_only` or
  // `<group>:read_write`; `*` grants all. Several scopes are separated by a space."
  it("parses *, and space-separated <group>:read_only|read_write", () => {
    expect(parseScopes("*")).toEqual({ all: true, groups: new Map() });
    expect(parseScopes("computes:read_only vpc:read_write")).toEqual({
      all: false,
      groups: new Map([
        ["computes", "read_only"],
        ["vpc", "read_write"],
      ]),
    });
  });
  it("keeps read_write when a group is named twice", () => {
    expect(parseScopes("images:read_write images:read_only")).toEqual({ all: false, groups: new Map([["images", "read_write"]]) });
  });
  it("refuses an empty string, unknown groups and other levels", () => {
    expect(parseScopes("  ")).toBe("must name at least one scope, or *");
    expect(parseScopes("computes:admin")).toMatch(/^"computes:admin" is not a scope; use \* or <group>:read_only\|read_write with group one of account, /);
    expect(parseScopes("bogus:read_only")).toMatch(/^"bogus:read_only" is not a scope/);
    expect(parseScopes("computes")).toMatch(/^"computes" is not a scope/);
  });
  // compute-api.md "Authentication" 2: "Groups used in this document: `computes`, `images`, `vpc`, `ips`";
  // databases-api.md "Authentication" 2: `databases:...`; profile-api.md "Authentication" 2: `account:...`.
  it("knows the groups the three documents use", () => {
    for (const g of ["computes", "images", "vpc", "ips", "databases", "account"]) expect(SCOPE_GROUPS).toContain(g);
  });
  // docs/spec-gaps.md "Scope groups": the real service's other groups, listed sorted in the error text.
  it("takes the real service's other groups, and lists them all sorted", () => {
    expect(SCOPE_GROUPS.join(" ")).toBe(
      "account child_account computes databases domains events firewall images ips lke longview maintenance monitor nodebalancers object_storage stackscripts volumes vpc",
    );
  });
});

describe("api facts: interfaces", () => {
  // compute-api.md "Limits": "Interfaces per profile or create request | 1 to 3".
  it("takes 1 to 3 interfaces (none only where allowed)", () => {
    expect(checkInterfaces([{ purpose: "public" }], false)).toBeUndefined();
    expect(checkInterfaces([], true)).toBeUndefined();
    expect(checkInterfaces([], false)).toEqual({ field: "interfaces", reason: "must have 1 to 3 interfaces" });
    const four = [{ purpose: "public" }, { purpose: "vlan", label: "a" }, { purpose: "vlan", label: "b" }, { purpose: "vlan", label: "c" }];
    expect(checkInterfaces(four, true)).toEqual({ field: "interfaces", reason: "must have at most 3 interfaces" });
  });
  // compute-api.md "Interface": "primary | boolean | Default route for the instance. At most one per profile."
  it("takes at most one primary interface", () => {
    expect(
      checkInterfaces(
        [
          { purpose: "public", primary: true },
          { purpose: "vlan", label: "a" },
        ],
        false,
      ),
    ).toBeUndefined();
    const two = [
      { purpose: "public", primary: true },
      { purpose: "vlan", label: "a", primary: true },
    ];
    expect(checkInterfaces(two, false)).toEqual({ field: "interfaces", reason: "at most one interface can be primary" });
  });
  // compute-api.md "Interface": "purpose | string enum | `public`, `vlan`, `vpc`"; "label | string or null, 1..64 |
  // ... used by `vlan`"; "subnet_id | integer or null | VPC subnet to join (for `vpc`)".
  it("checks purpose, a vlan's label and a vpc's subnet", () => {
    expect(checkInterfaces([{ purpose: "vpc", subnet_id: 1 }], false)).toBeUndefined();
    expect(checkInterfaces([{ purpose: "wifi" }], false)).toEqual({ index: 0, field: "purpose", reason: "must be one of public, vlan, vpc" });
    expect(checkInterfaces([{ purpose: "public" }, { purpose: "vpc" }], false)).toEqual({
      index: 1,
      field: "subnet_id",
      reason: "a vpc interface needs a subnet_id",
    });
    const vlanLabel = { index: 0, field: "label", reason: "a vlan interface needs a label of 1 to 64 characters" };
    expect(checkInterfaces([{ purpose: "vlan", label: "" }], false)).toEqual(vlanLabel);
    expect(checkInterfaces([{ purpose: "vlan", label: "v".repeat(65) }], false)).toEqual(vlanLabel);
    expect(checkInterfaces([{ purpose: "vlan", label: "v".repeat(64) }], false)).toBeUndefined();
  });
  it("takes at most one public interface (the emulator's choice)", () => {
    expect(checkInterfaces([{ purpose: "public" }, { purpose: "public" }], false)).toEqual({
      index: 0,
      field: "purpose",
      reason: "at most one public interface",
    });
  });
  // compute-api.md "Interface": "ipam_address | string or null (ip/netmask CIDR) | Used by `vlan`."
  it("takes an ipam_address in address/netmask form", () => {
    expect(ipamAddressError("10.0.0.1/24")).toBeUndefined();
    for (const bad of ["10.0.0.1", "10.0.0/24", "fe80::1/64", 24])
      expect(ipamAddressError(bad)).toBe("Must be an IPv4 address with a netmask, for example 10.0.0.1/24");
  });
  // compute-api.md "Configuration profile": "devices | object | Keys `sda` to `sdh`".
  it("names the device slots sda to sdh", () => {
    expect(DEVICE_SLOTS).toEqual(["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"]);
  });
});

describe("api facts: VPC and subnet labels", () => {
  // compute-api.md "VPC and subnet": "label (string 1..64)"; "Labels: ASCII letters, digits and hyphens; no two consecutive hyphens."
  it("takes 1 to 64 ASCII letters, digits and hyphens", () => {
    expect(vpcLabelError("a")).toBeUndefined();
    expect(vpcLabelError("net-1-A")).toBeUndefined();
    expect(vpcLabelError("")).toBe("must be 1 to 64 characters (got 0)");
    expect(vpcLabelError("n".repeat(65))).toBe("must be 1 to 64 characters (got 65)");
    expect(vpcLabelError("net_1")).toBe("must include only ASCII letters, numbers, and dashes");
    expect(vpcLabelError("net.1")).toBe("must include only ASCII letters, numbers, and dashes");
  });
  it("refuses two hyphens in a row", () => {
    expect(vpcLabelError("net--1")).toBe("must not have two hyphens in a row");
    expect(vpcLabelError("-net-")).toBeUndefined();
  });
});

describe("api facts: subnet ipv4", () => {
  // compute-api.md "VPCs": "Subnet `ipv4` rules: CIDR canonical form; within a private address space defined in
  // RFC 1918; prefix length 1 to 29; must not overlap 192.168.128.0/17; must not overlap another subnet of the same VPC."
  it("accepts canonical private CIDRs with a prefix of at most 29", () => {
    for (const ok of ["10.0.0.0/8", "10.0.1.0/24", "172.16.0.0/12", "172.31.255.248/29", "192.168.0.0/17"]) expect(subnetIpv4Error(ok)).toBeUndefined();
  });
  it("refuses what is not an IPv4 CIDR", () => {
    for (const bad of ["10.0.0.0", "10.0.0/24", "10.0.0.0/33", "fd00::/64", "10.0.0.0/8/8"])
      expect(subnetIpv4Error(bad)).toBe("must be an IPv4 CIDR such as 10.0.1.0/24");
  });
  it("bounds the prefix length to 1..29", () => {
    expect(subnetIpv4Error("10.0.0.0/30")).toBe("the prefix length must be 1 to 29 (got /30)");
    expect(subnetIpv4Error("0.0.0.0/0")).toBe("the prefix length must be 1 to 29 (got /0)");
    expect(subnetIpv4Error("10.0.0.0/29")).toBeUndefined();
  });
  it("wants the canonical form (no host bits)", () => {
    expect(subnetIpv4Error("10.0.0.1/24")).toBe("must be in canonical form: 10.0.0.0/24");
  });
  it("wants an RFC 1918 range", () => {
    const text = "must be inside a private range of RFC 1918 (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)";
    expect(subnetIpv4Error("8.8.8.0/24")).toBe(text);
    expect(subnetIpv4Error("172.32.0.0/16")).toBe(text);
    expect(subnetIpv4Error("10.0.0.0/7")).toBe(text);
  });
  it("stays clear of 192.168.128.0/17", () => {
    expect(subnetIpv4Error("192.168.128.0/24")).toBe("must not overlap 192.168.128.0/17 (reserved)");
    expect(subnetIpv4Error("192.168.0.0/16")).toBe("must not overlap 192.168.128.0/17 (reserved)");
  });
  it("finds overlaps between subnets, and the bounds of a range", () => {
    expect(ipv4SpansOverlap("10.0.0.0/24", "10.0.0.128/25")).toBe(true);
    expect(ipv4SpansOverlap("10.0.0.0/24", "10.0.1.0/24")).toBe(false);
    expect(ipv4Span("10.0.0.0/30")).toEqual([167772160, 167772163]);
    const range = readIpv4Range("10.1.2.3/16");
    expect([String(range?.address), range?.prefix, range?.first, range?.last]).toEqual(["10.1.2.3", 16, 167838211, 167838211 + 65535]);
    expect(readIpv4Range("::1/128")).toBeUndefined();
  });
});

describe("api facts: database allow lists", () => {
  // databases-api.md "Database instance": "allow_list | array of strings | Each item an IP address or CIDR range";
  // rule 2: "the value `0.0.0.0/0` admits every address".
  it("takes IPv4 and IPv6 addresses and CIDR ranges", () => {
    for (const ok of ["203.0.113.7", "0.0.0.0/0", "10.0.0.0/8", "2001:db8::1", "2001:db8::/32"]) expect(addressOrRangeError(ok)).toBeUndefined();
  });
  it("refuses anything else", () => {
    expect(addressOrRangeError("300.1.1.1")).toBe('"300.1.1.1" is not a valid IP address');
    expect(addressOrRangeError("example.com")).toBe('"example.com" is not a valid IP address');
    expect(addressOrRangeError("10.0.0.0/33")).toBe('"10.0.0.0/33" is not a valid CIDR range');
  });
});
