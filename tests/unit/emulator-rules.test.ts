import {
  DEVICE_SLOTS,
  OAUTH_SCOPE_GROUPS,
  SSH_KEY_TYPES,
  WEAK_PASSWORD,
  cidrBounds,
  cidrsOverlap,
  instanceLabelError,
  interfacesError,
  ipOrCidrError,
  ipamAddressError,
  lengthError,
  parseIpv4Cidr,
  parseScopes,
  rootPassError,
  sshPublicKeyError,
  subnetIpv4Error,
  vpcLabelError,
} from "../../emulator/rules";

/** An OpenSSH public key line whose blob holds `type` (SSH wire format) and `extra` bytes of key material. */
function keyLine(type: string, extra = 32, blobType = type): string {
  const name = Buffer.from(blobType, "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(name.length);
  return `${type} ${Buffer.concat([len, name, Buffer.alloc(extra, 7)]).toString("base64")} me@host`;
}

describe("emulator/rules: lengths", () => {
  // compute-api.md "Limits": "Config label | 1..48 chars", "Disk label | 1..48 chars", "Snapshot label | 1..255 chars".
  it("accepts lengths within min..max, bounds included", () => {
    expect(lengthError("a", 1, 48)).toBeUndefined();
    expect(lengthError("a".repeat(48), 1, 48)).toBeUndefined();
    expect(lengthError("a".repeat(255), 1, 255)).toBeUndefined();
  });
  it("rejects lengths outside min..max, saying the bounds and the length", () => {
    expect(lengthError("", 1, 48)).toBe("must be 1 to 48 characters (got 0)");
    expect(lengthError("a".repeat(49), 1, 48)).toBe("must be 1 to 48 characters (got 49)");
  });
  // profile-api.md "Limits": "SSH key label | at most 64 chars" (min 0: no lower bound).
  it("says 'at most' when there is no lower bound", () => {
    expect(lengthError("", 0, 64)).toBeUndefined();
    expect(lengthError("a".repeat(65), 0, 64)).toBe("must be at most 64 characters (got 65)");
  });
});

describe("emulator/rules: instance labels", () => {
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

describe("emulator/rules: root passwords", () => {
  // compute-api.md "Instances", Create body: "root_pass | string 7..128"; "Limits": "root_pass | 7..128 chars".
  it("takes 7 to 128 characters", () => {
    expect(rootPassError("Ab1!xyz")).toBeUndefined();
    expect(rootPassError("Ab1" + "x".repeat(125))).toBeUndefined();
    expect(rootPassError("Ab1!xy")).toBe("must be 7 to 128 characters (got 6)");
    expect(rootPassError("Ab1" + "x".repeat(126))).toBe("must be 7 to 128 characters (got 129)");
  });
  // compute-api.md "Instances" rule 7: "an insufficient password strength returns the error text
  // `Password does not meet strength requirement`" (the strength rule: docs/spec-gaps.md, three kinds of characters).
  it("refuses a weak password with the spec's text first", () => {
    expect(WEAK_PASSWORD).toBe("Password does not meet strength requirement");
    expect(rootPassError("abcdefgh1")?.startsWith(WEAK_PASSWORD)).toBe(true);
    expect(rootPassError("ABCDEFGH")?.startsWith(WEAK_PASSWORD)).toBe(true);
    expect(rootPassError("abcDEF12")).toBeUndefined();
    expect(rootPassError("abcdef1!")).toBeUndefined();
  });
});

describe("emulator/rules: SSH public keys", () => {
  // profile-api.md "SSH key": "`ssh_key` (string, public key) ... The list of accepted key formats: not shown."
  // (docs/spec-gaps.md "Accepted SSH key formats": `<type> <base64> [comment]`, the blob starting with the same type.)
  it("accepts an OpenSSH key line of a known type, with or without a comment", () => {
    expect(sshPublicKeyError(keyLine("ssh-ed25519"))).toBeUndefined();
    expect(sshPublicKeyError(keyLine("ecdsa-sha2-nistp256", 64).replace(/ me@host$/, ""))).toBeUndefined();
    expect(SSH_KEY_TYPES).toContain("ssh-rsa");
  });
  it("refuses other shapes, types and blobs", () => {
    expect(sshPublicKeyError("ssh-ed25519")).toMatch(/^must be an OpenSSH public key: "<type> <base64 key> \[comment\]"/);
    expect(sshPublicKeyError(keyLine("ssh-foo"))).toMatch(/^key type "ssh-foo" is not supported; use one of ssh-rsa, /);
    expect(sshPublicKeyError("ssh-ed25519 not*base64")).toBe("the key data is not valid base64");
    expect(sshPublicKeyError("ssh-ed25519 AAA=")).toBe("the key data is too short");
    expect(sshPublicKeyError(keyLine("ssh-ed25519", 32, "ssh-rsa"))).toBe("the key data does not hold a ssh-ed25519 key");
    expect(sshPublicKeyError(keyLine("ssh-ed25519", 8))).toBe("the key data is too short");
  });
});

describe("emulator/rules: OAuth scopes", () => {
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
    for (const g of ["computes", "images", "vpc", "ips", "databases", "account"]) expect(OAUTH_SCOPE_GROUPS).toContain(g);
  });
});

describe("emulator/rules: interfaces", () => {
  // compute-api.md "Limits": "Interfaces per profile or create request | 1 to 3".
  it("takes 1 to 3 interfaces (none only where allowed)", () => {
    expect(interfacesError([{ purpose: "public" }], false)).toBeUndefined();
    expect(interfacesError([], true)).toBeUndefined();
    expect(interfacesError([], false)).toEqual({ field: "interfaces", reason: "must have 1 to 3 interfaces" });
    const four = [{ purpose: "public" }, { purpose: "vlan", label: "a" }, { purpose: "vlan", label: "b" }, { purpose: "vlan", label: "c" }];
    expect(interfacesError(four, true)).toEqual({ field: "interfaces", reason: "must have at most 3 interfaces" });
  });
  // compute-api.md "Interface": "primary | boolean | Default route for the instance. At most one per profile."
  it("takes at most one primary interface", () => {
    expect(
      interfacesError(
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
    expect(interfacesError(two, false)).toEqual({ field: "interfaces", reason: "at most one interface can be primary" });
  });
  // compute-api.md "Interface": "purpose | string enum | `public`, `vlan`, `vpc`"; "label | string or null, 1..64 |
  // ... used by `vlan`"; "subnet_id | integer or null | VPC subnet to join (for `vpc`)".
  it("checks purpose, a vlan's label and a vpc's subnet", () => {
    expect(interfacesError([{ purpose: "vpc", subnet_id: 1 }], false)).toBeUndefined();
    expect(interfacesError([{ purpose: "wifi" }], false)).toEqual({ index: 0, field: "purpose", reason: "must be one of public, vlan, vpc" });
    expect(interfacesError([{ purpose: "public" }, { purpose: "vpc" }], false)).toEqual({
      index: 1,
      field: "subnet_id",
      reason: "a vpc interface needs a subnet_id",
    });
    const vlanLabel = { index: 0, field: "label", reason: "a vlan interface needs a label of 1 to 64 characters" };
    expect(interfacesError([{ purpose: "vlan", label: "" }], false)).toEqual(vlanLabel);
    expect(interfacesError([{ purpose: "vlan", label: "v".repeat(65) }], false)).toEqual(vlanLabel);
    expect(interfacesError([{ purpose: "vlan", label: "v".repeat(64) }], false)).toBeUndefined();
  });
  it("takes at most one public interface (the emulator's choice)", () => {
    expect(interfacesError([{ purpose: "public" }, { purpose: "public" }], false)).toEqual({
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

describe("emulator/rules: VPC and subnet labels", () => {
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

describe("emulator/rules: subnet ipv4", () => {
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
    expect(cidrsOverlap("10.0.0.0/24", "10.0.0.128/25")).toBe(true);
    expect(cidrsOverlap("10.0.0.0/24", "10.0.1.0/24")).toBe(false);
    expect(cidrBounds("10.0.0.0/30")).toEqual([167772160, 167772163]);
    expect(parseIpv4Cidr("10.1.2.3/16")?.map(String)).toEqual(["10.1.2.3", "16"]);
    expect(parseIpv4Cidr("::1/128")).toBeUndefined();
  });
});

describe("emulator/rules: database allow lists", () => {
  // databases-api.md "Database instance": "allow_list | array of strings | Each item an IP address or CIDR range";
  // rule 2: "the value `0.0.0.0/0` admits every address".
  it("takes IPv4 and IPv6 addresses and CIDR ranges", () => {
    for (const ok of ["203.0.113.7", "0.0.0.0/0", "10.0.0.0/8", "2001:db8::1", "2001:db8::/32"]) expect(ipOrCidrError(ok)).toBeUndefined();
  });
  it("refuses anything else", () => {
    expect(ipOrCidrError("300.1.1.1")).toBe('"300.1.1.1" is not a valid IP address');
    expect(ipOrCidrError("example.com")).toBe('"example.com" is not a valid IP address');
    expect(ipOrCidrError("10.0.0.0/33")).toBe('"10.0.0.0/33" is not a valid CIDR range');
  });
});
