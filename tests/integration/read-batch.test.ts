/**
 * The refresh of a large stack: reads of one collection served from its list (provider/transport/read-batch.ts), the
 * same records as the items' GETs, with what is never taken from a list (an id the list lacks, anything after
 * a write of this process).
 */
import { THRESHOLD } from "../../provider/transport/read-batch";
import { sshKeyProvider as p } from "../../provider/resources/sshKey";
import { vpcProvider } from "../../provider/resources/vpc";
import { call, ed25519Key } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";

type Props = Record<string, unknown>;
const emu = useProviderSuite();

async function keys(n: number, from = 0): Promise<Array<{ id: string; outs: Props }>> {
  const out = [];
  for (let i = from; i < from + n; i++) {
    const { inputs } = await p.check({}, { label: `rb-${i}`, sshKey: ed25519Key(2000 + i) });
    out.push(await p.create(inputs));
  }
  return out;
}

/** The API's requests since `from`, by kind. */
function requests(from: number): { items: number; lists: number } {
  const log = emu.log.slice(from).filter((l) => l.path.startsWith("/v4/profile/sshkeys"));
  return { items: log.filter((l) => /\/sshkeys\/\d+$/.test(l.path)).length, lists: log.filter((l) => /\/sshkeys(\?|$)/.test(l.path)).length };
}

/** n reads with at most `parallel` under way at once, as the engine sends them. */
async function readAll(made: Array<{ id: string; outs: Props }>, parallel: number): Promise<Props[]> {
  const out: Props[] = new Array<Props>(made.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < made.length; i = next++) out[i] = await p.read(made[i].id, made[i].outs);
    }),
  );
  return out;
}

test("520 reads, 8 at a time: a few item GETs, then the list's two pages; each the same record as its own GET", async () => {
  const made = await keys(520);
  const from = emu.log.length;
  const read = await readAll(made, 8);
  const r = requests(from);
  expect(r.lists).toBe(2);
  expect(r.items).toBeLessThan(THRESHOLD + 8);
  // What each read says equals what the key's own GET answers.
  for (const [i, m] of made.entries()) {
    const api = (await call(emu, "GET", `/profile/sshkeys/${m.id}`)).body as Props;
    expect(read[i].props).toMatchObject({ label: api.label, sshKey: api.ssh_key, created: api.created });
    expect(read[i].id).toBe(m.id);
  }
});

test("a key the list lacks is read by its GET: gone when it is gone", async () => {
  const made = await keys(40);
  // Deleted behind the provider's back before the refresh.
  expect((await call(emu, "DELETE", `/profile/sshkeys/${made[30].id}`)).status).toBe(200);
  const from = emu.log.length;
  const read = await Promise.all(made.map((m) => p.read(m.id, m.outs)));
  expect(read[30]).toEqual({});
  expect(read.filter((x) => x.id === undefined)).toHaveLength(1);
  expect(requests(from).lists).toBe(1);
  expect(emu.log.slice(from).some((l) => l.path === `/v4/profile/sshkeys/${made[30].id}` && l.status === 404)).toBe(true);
});

test("after a write of this process, reads are not taken from a list made before it", async () => {
  const made = await keys(40);
  await Promise.all(made.map((m) => p.read(m.id, m.outs)));
  // Within the list's 5 s: a rename through the provider, then a read of that key says the new label.
  await p.update(made[5].id, made[5].outs, { ...made[5].outs, label: "renamed" });
  const from = emu.log.length;
  const again = await p.read(made[5].id, made[5].outs);
  expect(again.props?.label).toBe("renamed");
  // Asked again (here a new list: the reads of the window are still many), not taken from the first list.
  const r = requests(from);
  expect(r.items + r.lists).toBe(1);
});

test("a few reads (a small stack) each send their own GET, and no list", async () => {
  const made = await keys(THRESHOLD - 1);
  const from = emu.log.length;
  await Promise.all(made.map((m) => p.read(m.id, m.outs)));
  expect(requests(from)).toEqual({ items: THRESHOLD - 1, lists: 0 });
});

test("reads of other collections are counted apart: VPCs read from their own list", async () => {
  const vpcs = [];
  for (let i = 0; i < 30; i++) {
    const { inputs } = await vpcProvider.check({}, { label: `rb-vpc-${i}`, region: "us-east" });
    vpcs.push(await vpcProvider.create(inputs));
  }
  const from = emu.log.length;
  const read = await Promise.all(vpcs.map((v) => vpcProvider.read(v.id, v.outs)));
  const log = emu.log.slice(from);
  expect(log.filter((l) => /^\/v4\/vpcs(\?|$)/.test(l.path))).toHaveLength(1);
  expect(log.filter((l) => /^\/v4\/vpcs\/\d+$/.test(l.path)).length).toBeLessThan(THRESHOLD + 1);
  expect(read.map((x) => x.props?.label)).toEqual(vpcs.map((v) => v.outs.label));
});
