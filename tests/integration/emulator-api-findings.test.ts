/**
 * What a new user trying the emulator's API found (issue 53, fresh eyes), each a regression test: an instance's
 * link-local IPv6 address was the gateway's (fe80::1) for the first instance; a boot queued behind a shutdown went
 * from offline to running, never seen booting.
 */
import { BASE_MS } from "../../emulator/timing";
import { I, useComputeEmulator } from "../helpers/compute-calls";
import { call } from "../helpers/emulator";

const { emu, tick, deployed, get } = useComputeEmulator();

test("an instance's link-local IPv6 address is its own (fe80:: and its MAC's EUI-64), never the gateway's", async () => {
  const first = await deployed({ label: "first" });
  const second = await deployed({ label: "second" });
  expect(first.id).toBe(1);
  const [a, b] = [(await get(`${I(first.id)}/ips`)).ipv6, (await get(`${I(second.id)}/ips`)).ipv6];
  expect(a.link_local.address).toBe("fe80::f03c:ff:fe00:1");
  expect(a.link_local.address).not.toBe(a.link_local.gateway);
  expect(b.link_local.address).not.toBe(a.link_local.address);
  for (const { link_local } of [a, b]) expect(link_local.address).toMatch(/^fe80::f03c:[0-9a-f]{0,2}ff:fe[0-9a-f]{2}:[0-9a-f]{1,4}$/);
});

test("a boot queued behind a shutdown is seen booting for a boot's time once the shutdown ends, then running", async () => {
  const inst = await deployed();
  expect((await call(emu(), "POST", `${I(inst.id)}/shutdown`)).status).toBe(200);
  expect((await call(emu(), "POST", `${I(inst.id)}/boot`)).status).toBe(200);
  expect((await get(I(inst.id))).status).toBe("shutting_down");
  tick(BASE_MS.shutting_down);
  expect((await get(I(inst.id))).status).toBe("booting");
  tick(BASE_MS.booting - 1);
  expect((await get(I(inst.id))).status).toBe("booting");
  tick(1);
  expect((await get(I(inst.id))).status).toBe("running");
});
