import { isIPv4 } from "node:net";
import { ipv4Span, readIpv4Range } from "../../api/network";
import { HttpError } from "../../emulator/http";
import {
  nthAddress,
  poolSize,
  privateIp,
  privateIpNumber,
  PRIVATE_POOL,
  publicIp,
  publicIpNumber,
  PUBLIC_POOL,
  type AddressPool,
} from "../../emulator/routes/compute/network";

/**
 * The emulator's instance addresses (emulator/routes/compute/network.ts): the n-th address of each pool, for any
 * n a counter gives (issue 53: global sequences, so n may be large), is a well-formed address of the pool's
 * ranges, never its blocks' .0 or .255 (nor a public block's .1, its gateway), never one address for two n; past the
 * pool's size, a 400 naming it. Before, n of 39,483 x 254 made `203.0.39483.21`.
 */

const within = (pool: AddressPool, address: string) => {
  const at = readIpv4Range(`${address}/32`);
  return at !== undefined && pool.ranges.some((cidr) => at.first >= ipv4Span(cidr)[0] && at.first <= ipv4Span(cidr)[1]);
};

const refusal = (f: () => unknown): { status: number; items: unknown } | undefined => {
  try {
    f();
  } catch (e) {
    if (e instanceof HttpError) return { status: e.status, items: e.errors };
    throw e;
  }
  return undefined;
};

describe.each([
  ["public", PUBLIC_POOL, publicIp, publicIpNumber, 130_042],
  ["private", PRIVATE_POOL, privateIp, privateIpNumber, 32_512],
] as const)("the %s pool", (_name, pool, nth, numberOf, size) => {
  test("holds the documented number of addresses", () => {
    expect(poolSize(pool)).toBe(size);
  });

  test("every n up to its size is a distinct, well-formed address of its ranges that reads back to n", () => {
    const seen = new Set<string>();
    for (let n = 1; n <= size; n++) {
      const address = nth(n);
      if (!isIPv4(address) || !within(pool, address) || numberOf(address) !== n || seen.has(address)) throw new Error(`n ${n}: ${address}`);
      const host = Number(address.split(".")[3]);
      if (host < pool.firstHost || host > 254) throw new Error(`n ${n}: host ${host}`);
      seen.add(address);
    }
    expect(seen.size).toBe(size);
  });

  test("large n (what global counters give) is refused with a 400 naming the pool, never a malformed address", () => {
    for (const n of [size + 1, 10_000_001, 39_483 * 254 + 21, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      expect(nthAddress(pool, n)).toBeUndefined();
      const r = refusal(() => nth(n));
      expect(r?.status).toBe(400);
      expect(JSON.stringify(r?.items)).toContain(`No ${pool.name} address is left`);
    }
    for (const n of [0, -1, 1.5, Number.NaN]) expect(nthAddress(pool, n)).toBeUndefined();
  });
});

test("the first addresses, the block boundaries, and what is not the pools'", () => {
  expect([publicIp(1), publicIp(253), publicIp(254), publicIp(506), publicIp(507), publicIp(130_042)]).toEqual([
    "203.0.113.2",
    "203.0.113.254",
    "192.0.2.2",
    "192.0.2.254",
    "198.18.0.2",
    "198.19.255.254",
  ]);
  expect([privateIp(1), privateIp(254), privateIp(255), privateIp(32_512)]).toEqual(["192.168.128.1", "192.168.128.254", "192.168.129.1", "192.168.255.254"]);
  for (const other of ["203.0.113.1", "203.0.113.255", "203.0.114.2", "198.51.100.7", "192.168.128.0", "10.0.0.1", "not an address"]) {
    expect(publicIpNumber(other)).toBeUndefined();
  }
  for (const other of ["192.168.127.1", "192.168.128.255", "203.0.113.2"]) expect(privateIpNumber(other)).toBeUndefined();
});
