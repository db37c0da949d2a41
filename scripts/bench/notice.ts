/** Section 2: how long after the emulator reaches a status the provider's wait returns, and its polls. */
import { startEmulator } from "../../emulator/server";
import { fmt, median } from "./common";
import { PASS, providerFor } from "./provider";

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function timeToNotice(): Promise<string> {
  const emu = await startEmulator({ speed: 0.25 });
  const p = await providerFor(emu);
  const lags: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < 8; i++) {
    // Provisioning of 0.8 s to 4.4 s (8 s at speed 1, scaled).
    emu.timing.speed = 0.1 + (i % 4) * 0.15;
    const ins = (await p.Instance.check({}, { region: "us-east", type: "c1-nano-1", image: "compute/debian12", rootPass: PASS, label: `notice-${i}` })).inputs;
    const start = emu.log.length;
    const t0 = Date.now();
    let due = 0;
    const watcher = setInterval(() => {
      const inst = emu.store.data.instances.find((x) => x.label === `notice-${i}`);
      if (inst && !due && inst._queue[0]) due = inst._queue[0].at;
    }, 1);
    const c = await p.Instance.create(ins);
    const t1 = Date.now();
    clearInterval(watcher);
    lags.push(t1 - due);
    const polls = emu.log.slice(start).filter((l) => l.method === "GET" && /instances\/\d+$/.test(l.path)).length;
    rates.push(polls / ((t1 - t0) / 1000));
    await p.Instance.delete(c.id, c.outs);
  }
  // A long wait: a database provisioning (7.5 s).
  emu.timing.speed = 0.25;
  const dbIns = (await p.MysqlDatabase.check({}, { label: "notice-db", region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35" })).inputs;
  const start = emu.log.length;
  const t0 = Date.now();
  let dbDue = 0;
  const dbWatch = setInterval(() => {
    const db = emu.store.data.databases[0];
    if (db && !dbDue && db._queue[0]) dbDue = db._queue[0].at;
  }, 1);
  await p.MysqlDatabase.create(dbIns);
  const t1 = Date.now();
  clearInterval(dbWatch);
  const dbPolls = emu.log.slice(start).filter((l) => l.method === "GET" && /mysql\/instances\/\d+$/.test(l.path)).length;
  await emu.close();
  return [
    "## 2. Time to notice",
    "",
    "How long after the emulator reaches the target status the provider returns: 8 instance creates (provisioning of 0.8 to 4.4 s), and one database (7.5 s; on the real service 15 to 30 minutes, where the provider polls every 10 s at most). Target: median under 250 ms, at most a few polls a second, backing off on long waits.",
    "",
    "| Wait | median | p90 | polls per second |",
    "|---|---|---|---|",
    `| instance provisioning (0.8 to 4.4 s) | ${fmt(median(lags))} ms | ${fmt(pct(lags, 0.9))} ms | ${fmt(median(rates), 1)} |`,
    `| database provisioning (7.5 s) | ${fmt(t1 - dbDue)} ms (one run) | | ${fmt(dbPolls / ((t1 - t0) / 1000), 1)} |`,
    "",
  ].join("\n");
}
