/**
 * An instance's networking (issue 53): the read-only view `GET /compute/instances/{id}/ips` that
 * terraform-provider-linode reads for every instance, answered as today's recordings show it (linodego's
 * TestIPAddresses_Instance_Get and others: ipv4 public/private/shared/reserved/vpc, ipv6 slaac/link_local/global/vpc),
 * and the addresses an instance gets in every account: public ones of the documented ranges, private ones of the
 * spec's 192.168.128.0/17, never a malformed one (before: `203.0.39483.21` outside the first account).
 */
import { isIPv4 } from "node:net";
import { ipv4Span, readIpv4Range } from "../../api/network";
import { addUser, call, useEmulatorPerTest } from "../helpers/emulator";

const PASS = "Str0ng-Passw0rd!";

const { emu } = useEmulatorPerTest({ speed: 0 });

const inRange = (address: string, cidr: string) => {
  const at = readIpv4Range(`${address}/32`);
  const [first, last] = ipv4Span(cidr);
  return at !== undefined && at.first >= first && at.first <= last;
};
const PUBLIC_RANGES = ["203.0.113.0/24", "192.0.2.0/24", "198.18.0.0/15"];
const isPublic = (a: string) => isIPv4(a) && PUBLIC_RANGES.some((r) => inRange(a, r));
const isPrivate = (a: string) => isIPv4(a) && inRange(a, "192.168.128.0/17");

test("GET /compute/instances/{id}/ips: public and private IPv4, the VPC address with its 1:1 NAT, SLAAC and link-local IPv6", async () => {
  const vpc = (await call(emu(), "POST", "/vpcs", { body: { label: "net", region: "us-east", subnets: [{ label: "web", ipv4: "10.0.1.0/24" }] } })).body;
  const subnet = vpc.subnets[0];
  const made = await call(emu(), "POST", "/compute/instances", {
    body: {
      label: "web-1",
      region: "us-east",
      type: "c1-standard-2",
      image: "compute/debian12",
      root_pass: PASS,
      private_ip: true,
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: subnet.id, ipv4: { nat_1_1: "any" }, ip_ranges: ["10.0.1.64/28"] }],
    },
  });
  expect(made.status).toBe(200);
  const inst = made.body;
  const [pub, priv] = inst.ipv4;
  const r = await call(emu(), "GET", `/compute/instances/${inst.id}/ips`);
  expect(r.status).toBe(200);
  const [cfg] = (await call(emu(), "GET", `/compute/instances/${inst.id}/configs`)).body.data;
  const vpcIface = cfg.interfaces.find((i: any) => i.purpose === "vpc");
  const entity = { id: inst.id, type: "compute", label: "web-1", url: `/v4/compute/instances/${inst.id}` };
  const hex = inst.id.toString(16);
  const vpcBase = {
    vpc_id: vpc.id,
    subnet_id: subnet.id,
    region: "us-east",
    compute_id: inst.id,
    config_id: cfg.id,
    interface_id: vpcIface.id,
    nodebalancer_id: null,
    database_id: null,
    active: true,
    gateway: "10.0.1.1",
    prefix: 24,
    subnet_mask: "255.255.255.0",
  };
  expect(r.body).toEqual({
    ipv4: {
      public: [
        {
          address: pub,
          gateway: pub.replace(/\.\d+$/, ".1"),
          subnet_mask: "255.255.255.0",
          prefix: 24,
          type: "ipv4",
          public: true,
          rdns: `${pub.replace(/\./g, "-")}.ip.computeusercontent.com`,
          compute_id: inst.id,
          interface_id: null,
          region: "us-east",
          vpc_nat_1_1: { vpc_id: vpc.id, subnet_id: subnet.id, address: vpcIface.ipv4.vpc },
          reserved: false,
          assigned_entity: entity,
        },
      ],
      private: [
        {
          address: priv,
          gateway: null,
          subnet_mask: "255.255.128.0",
          prefix: 17,
          type: "ipv4",
          public: false,
          rdns: null,
          compute_id: inst.id,
          interface_id: null,
          region: "us-east",
          vpc_nat_1_1: null,
          reserved: false,
          assigned_entity: entity,
        },
      ],
      shared: [],
      reserved: [],
      vpc: [
        { address: vpcIface.ipv4.vpc, address_range: null, nat_1_1: "any", ...vpcBase },
        { address: null, address_range: "10.0.1.64/28", nat_1_1: null, ...vpcBase },
      ],
    },
    ipv6: {
      slaac: {
        address: `2001:db8::${hex}`,
        gateway: "fe80::1",
        subnet_mask: "ffff:ffff:ffff:ffff::",
        prefix: 64,
        type: "ipv6",
        rdns: null,
        compute_id: inst.id,
        region: "us-east",
        public: true,
      },
      link_local: {
        address: `fe80::f03c:ff:fe00:${hex}`,
        gateway: "fe80::1",
        subnet_mask: "ffff:ffff:ffff:ffff::",
        prefix: 64,
        type: "ipv6",
        rdns: null,
        compute_id: inst.id,
        region: "us-east",
        public: false,
      },
      global: [],
      vpc: [],
    },
  });
  // What the VPC's own list says of the address, the view says alike.
  const listed = (await call(emu(), "GET", `/vpcs/${vpc.id}/ips`)).body.data;
  expect(r.body.ipv4.vpc).toEqual(listed);
});

test("the view is the instance's: 404 for an instance another user cannot see, the computes scope to read it", async () => {
  const inst = (await call(emu(), "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2" } })).body;
  const bare = await call(emu(), "GET", `/compute/instances/${inst.id}/ips`);
  expect(bare.body.ipv4).toMatchObject({ public: [expect.objectContaining({ address: inst.ipv4[0] })], private: [], vpc: [] });
  const stranger = await addUser(emu(), "stranger", { restricted: true });
  expect((await call(emu(), "GET", `/compute/instances/${inst.id}/ips`, { token: stranger })).status).toBe(404);
  const noComputes = await addUser(emu(), "vpconly", { scopes: "vpc:read_only" });
  expect((await call(emu(), "GET", `/compute/instances/${inst.id}/ips`, { token: noComputes })).status).toBe(403);
  expect((await call(emu(), "GET", "/compute/instances/999999/ips")).status).toBe(404);
});

test("in a second account, an instance's and a clone's addresses are well formed, in the documented ranges", async () => {
  const other = (await call(emu(), "POST", "/__emulator/accounts", { body: { label: "second" } })).body;
  const body = { region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: PASS, private_ip: true };
  const mine = (await call(emu(), "POST", "/compute/instances", { body })).body;
  const made = await call(emu(), "POST", "/compute/instances", { token: other.token, body });
  expect(made.status).toBe(200);
  const clone = await call(emu(), "POST", `/compute/instances/${made.body.id}/clone`, {
    token: other.token,
    body: { region: "us-east", type: "c1-standard-2", private_ip: true },
  });
  expect(clone.status).toBe(200);
  for (const inst of [mine, made.body, clone.body]) {
    const [pub, priv] = inst.ipv4;
    expect([pub, isPublic(pub), priv, isPrivate(priv)]).toEqual([pub, true, priv, true]);
  }
  // A public address is one instance's, whatever the account (as the real API's); a private one is the account's own network's.
  expect(new Set([mine, made.body, clone.body].map((i) => i.ipv4[0])).size).toBe(3);
  const view = (await call(emu(), "GET", `/compute/instances/${made.body.id}/ips`, { token: other.token })).body;
  expect([view.ipv4.public[0].address, view.ipv4.private[0].address]).toEqual(made.body.ipv4);
});
