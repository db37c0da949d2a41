/** Section 5: the emulator's throughput under load. */
import { Pool } from "undici";
import { startEmulator } from "../../emulator/server";
import { fmt } from "./common";
import { publicKey } from "./provider";

export async function emulatorThroughput(): Promise<string> {
  const emu = await startEmulator({ speed: 0 });
  const d = emu.store.data;
  for (let i = 1; i <= 10_000; i++)
    d.sshkeys.push({ id: emu.store.nextId("sshkey"), label: `k${i}`, ssh_key: publicKey(i), created: "2026-01-01T00:00:00", username: "admin" });
  const vpcBase = { description: "", region: "us-east", created: "2026-01-01T00:00:00", updated: "2026-01-01T00:00:00", _owner: "admin" };
  for (let i = 1; i <= 10_000; i++) d.vpcs.push({ id: emu.store.nextId("vpc"), label: `v${i}`, ...vpcBase });
  const origin = emu.url.replace(/\/v4$/, "");
  const pool = new Pool(origin, { connections: 32, pipelining: 1 });
  const headers = { authorization: `Bearer ${emu.token}` };
  const load = async (pathFor: (i: number) => string, seconds = 3) => {
    const until = Date.now() + seconds * 1000;
    let n = 0;
    let errors = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        for (let i = w; Date.now() < until; i += 32) {
          const r = await pool.request({ method: "GET", path: pathFor(i), headers });
          await r.body.text();
          if (r.statusCode !== 200) errors++;
          n++;
        }
      }),
    );
    return { rps: n / seconds, errors };
  };
  const rows = [];
  for (const [name, fn] of [
    ["list SSH keys (page of 100)", () => "/v4/profile/sshkeys"],
    ["list SSH keys (page of 500)", (i: number) => `/v4/profile/sshkeys?page_size=500&page=${(i % 20) + 1}`],
    ["view an SSH key", (i: number) => `/v4/profile/sshkeys/${(i % 10_000) + 1}`],
    ["list VPCs (page of 100)", () => "/v4/vpcs"],
    ["view a VPC", (i: number) => `/v4/vpcs/${(i % 10_000) + 1}`],
  ] as Array<[string, (i: number) => string]>) {
    const r = await load(fn);
    rows.push(`| ${name} | ${fmt(r.rps)} | ${r.errors} |`);
  }
  await pool.close();
  await emu.close();
  return [
    "## 5. Emulator throughput",
    "",
    "Requests per second with 10,000 SSH keys and 10,000 VPCs in the emulator, 32 keep-alive connections from this process for 3 s each (one process drives the load and serves it, on 2 cores).",
    "",
    "| Route | requests/s | errors |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
