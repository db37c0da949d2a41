#!/usr/bin/env node
/**
 * The benchmark suite: `npm run bench [-- --sizes 10,200,1000] [-- --repeat 3] [-- --only requests,notice,state,scale,emulator,failures,rate,plugin-start]`,
 * or `npm run bench -- --quick` (one size of 100, one run, a smaller rate-limit stack: a few minutes, for a
 * developer's loop). Writes bench/results.md (machine, versions, date, figures); with --only, the other
 * sections are kept as they were, marked with the run that made them. Nothing here is a test: figures, not
 * pass/fail (the targets are printed beside them). The sections through the CLI run both front doors: the
 * dynamic classes (pulumi-compute) and the plugin (@pulumi-compute/plugin-sdk, its tarball made by
 * scripts/gen-sdks if missing or older than schema.json), each beside a do-nothing provider of its kind; the
 * plugins are installed with `pulumi plugin install` into a PULUMI_HOME of the run's own (scripts/bench/common.ts).
 * Each section is a module of scripts/bench/ named by its `--only` key (`scale.ts`: scale and rate); this file
 * runs them and writes the results.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import * as path from "node:path";
import { ensurePluginSdk, fmt, ROOT } from "./bench/common";
import { commandLine } from "./command-line";
import { emulatorThroughput } from "./bench/emulator";
import { failingPrograms } from "./bench/failures";
import { timeToNotice } from "./bench/notice";
import { pluginStart } from "./bench/plugin-start";
import { requestsPerLifecycle } from "./bench/requests";
import { rateLimited, stackScale } from "./bench/scale";
import { stateSize } from "./bench/state";
import { emulatorSoak } from "./bench/soak";
import { emulatorTenants } from "./bench/tenants";

async function main(): Promise<void> {
  const { values } = commandLine({
    name: "npm run bench --",
    usage: `Usage: npm run bench -- [--quick] [--sizes N,...] [--repeat N] [--only SECTION,...] [--rate-count N]

Measures the provider (figures, not pass/fail) and writes bench/results.md.
  --quick            one size of 100 resources, one run, a smaller rate-limited stack: a few minutes
  --sizes N,...      the stack sizes of the scale section (default 10,200,1000)
  --repeat N         runs of each scale row (default 1)
  --only S,...       these sections only (the others stay as they were): requests, notice, state, scale,
                     emulator, failures, rate, plugin-start, soak, tenants
  --rate-count N     resources of the rate-limited stack (default 1000; 200 with --quick)
  -h, --help         this text`,
    options: {
      sizes: { type: "string" },
      repeat: { type: "string" },
      only: { type: "string" },
      quick: { type: "boolean" },
      "rate-count": { type: "string" },
    },
  });
  const quick = values.quick === true;
  const sizes = (values.sizes ?? (quick ? "100" : "10,200,1000")).split(",").map(Number);
  const rateCount = Number(values["rate-count"] ?? (quick ? 200 : 1000));
  const only = values.only
    ? values.only.split(",")
    : ["requests", "notice", "state", "scale", "emulator", "failures", "rate", "plugin-start", "soak", "tenants"];
  const sections: string[] = [];
  const run = async (name: string, fn: () => Promise<string>) => {
    if (!only.includes(name)) return;
    const t0 = Date.now();
    console.error(`bench: ${name}...`);
    sections.push(await fn());
    console.error(`bench: ${name} took ${fmt((Date.now() - t0) / 1000, 1)} s`);
  };
  // examples/all, and bench/scale with the plugin SDK for the state and scale sections (made if missing).
  const viaCli = only.includes("state") || only.includes("scale") || only.includes("rate");
  if (viaCli) ensurePluginSdk();
  execFileSync(path.join(ROOT, "scripts", "prepare-examples"), ["all", "tests/programs/errors", ...(viaCli ? ["bench/scale"] : [])], { stdio: "ignore" });
  await run("requests", requestsPerLifecycle);
  await run("notice", timeToNotice);
  await run("state", stateSize);
  await run("scale", () => stackScale(sizes, Math.max(1, Number(values.repeat ?? "1"))));
  await run("emulator", emulatorThroughput);
  await run("failures", () => failingPrograms(quick ? 1 : 3));
  await run("rate", () => rateLimited(rateCount, 64, 20));
  await run("plugin-start", () => pluginStart(quick ? 5 : 20));
  await run("soak", () => emulatorSoak(quick ? 60_000 : 200_000));
  await run("tenants", () => Promise.resolve(emulatorTenants()));
  const pulumiVersion = execFileSync(path.join(ROOT, "scripts", "ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  const cli = execFileSync(path.join(pulumiVersion, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  const sdk = (JSON.parse(readFileSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  const head = [
    "# Benchmarks",
    "",
    `Made by \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${fmt(totalmem() / 1024 ** 3)} GB. Node ${process.version}, Pulumi CLI ${cli}, @pulumi/pulumi ${sdk}.`,
    "",
  ];
  const out = path.join(ROOT, "bench", "results.md");
  writeFileSync(out, [...head, ...merged(out, sections, values.only !== undefined)].join("\n"));
  console.log(`wrote ${out}`);
}

/**
 * The sections to write: those just made, and (with --only) the other sections of the file as they were,
 * each marked with the run that made it. Sections are in their number order.
 */
function merged(file: string, made: string[], partial: boolean): string[] {
  const numberOf = (section: string) => Number(/^## (\d+)\./.exec(section)?.[1] ?? 0);
  const byNumber = new Map<number, string>();
  if (partial && existsSync(file)) {
    const old = readFileSync(file, "utf8");
    const run = /^Made by (.*?) on (\S+ \S+) UTC/m.exec(old);
    for (const part of old.split(/\n(?=## \d+\.)/).slice(1)) {
      const section = part.endsWith("\n") ? part : `${part}\n`;
      const mark = run ? `\n_Kept from an earlier run: ${run[1]} on ${run[2]} UTC._\n` : "";
      byNumber.set(numberOf(section), section.includes("_Kept from an earlier run") || !mark ? section : section.replace("\n", `\n${mark}`));
    }
  }
  for (const section of made) byNumber.set(numberOf(section), section);
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
}

main().catch((err: Error) => {
  console.error(`bench failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
