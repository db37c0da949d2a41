#!/usr/bin/env node
/**
 * Records the requests a program makes through the plain CLI against a fresh emulator: `up`, `preview`,
 * `refresh`, an `up` with nothing to do and `destroy` of examples/all, or of examples/compute with an update
 * before the destroy (a new label, type and root disk password), each as the
 * emulator's request log with ids and query strings taken out. Two builds that make the same requests give
 * the same file apart from the waits' polls (`npm run request-log -- --out a.json`, then `--compare a.json b.json`).
 *
 *   node dist/scripts/request-log.js [--example all] [--out FILE]
 *   node dist/scripts/request-log.js --compare A.json B.json     differences, polls apart (exit 1 when any)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator/server";
import { ed25519Key } from "./keys";
import { Project } from "./pulumi";
import { repoRoot } from "./root";
import { commandLine } from "./command-line";

type Log = Record<string, string[]>;

/** `GET /v4/compute/instances/12/disks?page=1` → `GET /compute/instances/{id}/disks 200`. */
export function normalize(e: { method: string; path: string; status: number }): string {
  const p = e.path
    .replace(/\?.*$/, "")
    .replace(/^\/v4/, "")
    .replace(/\/private\/\d+/g, "/private/{id}")
    .replace(/\/\d+(?=\/|$)/g, "/{id}");
  return `${e.method} ${p} ${e.status}`;
}

/** A log with the polls of a wait folded: a GET repeated (with other requests between) counts once per step. */
export function fold(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of lines) if (!l.startsWith("GET ")) counts[l] = (counts[l] ?? 0) + 1;
  for (const l of new Set(lines.filter((x) => x.startsWith("GET ")))) counts[l] = 1;
  return counts;
}

async function record(example: string): Promise<Log> {
  const emu = await startEmulator({ token: "request-log-token-0123456789", speed: 0.01 });
  const state = mkdtempSync(path.join(tmpdir(), "pulumi-compute-reqlog-"));
  const project = new Project(path.join(repoRoot(), "examples", example), `reqlog-${process.pid}`, state);
  const out: Log = {};
  try {
    const prefix = `${example}-example`;
    await project.configure(
      { "compute:apiUrl": emu.url, [`${prefix}:publicKey`]: ed25519Key(5) },
      {
        "compute:token": emu.token,
        [`${prefix}:rootPass`]: "Req-L0g-R00t-Pass!",
        [`${prefix}:scriptData`]: '{"greeting":"request-log"}',
        [`${prefix}:userData`]: Buffer.from("#cloud-config\n").toString("base64"),
      },
    );
    // The steps. With examples/compute, an update changes the root disk's password (a reset in a power cycle)
    // and the instance's label and type (a PUT, a resize).
    type Step = [string, "up" | "preview" | "refresh" | "destroy", Record<string, string>, Record<string, string>];
    const update: Step = [
      "update",
      "up",
      { [`${prefix}:label`]: "web-2", [`${prefix}:type`]: "c1-standard-4" },
      { [`${prefix}:rootPass`]: "N3w-Req-L0g-Pass!" },
    ];
    const steps: Step[] = [
      ["up", "up", {}, {}],
      ["preview", "preview", {}, {}],
      ["refresh", "refresh", {}, {}],
      ["up-again", "up", {}, {}],
      ...(example === "compute" ? [update] : []),
      ["destroy", "destroy", {}, {}],
    ];
    for (const [name, op, config, secrets] of steps) {
      await project.configure(config, secrets);
      emu.log.length = 0;
      const r = await project.run(op);
      if (r.code !== 0) throw new Error(`pulumi ${op} failed:\n${r.stderr}\n${r.stdout}`);
      out[name] = emu.log.map(normalize);
    }
    await project.run("rm", ["--force"]);
  } finally {
    rmSync(path.join(project.dir, `Pulumi.${project.stack}.yaml`), { force: true });
    rmSync(state, { recursive: true, force: true });
    await emu.close();
  }
  return out;
}

function compare(a: Log, b: Log): string[] {
  const diffs: string[] = [];
  for (const step of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [fold(a[step] ?? []), fold(b[step] ?? [])];
    for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) if (x[k] !== y[k]) diffs.push(`${step}: ${k}: ${x[k] ?? 0} -> ${y[k] ?? 0}`);
  }
  return diffs;
}

if (require.main === module) {
  const usage = `Usage: npm run request-log -- [--example all|compute] [--out FILE]
       npm run request-log -- --compare A.json B.json

Records every request up, preview, refresh, a second up and destroy of an example make through the plain CLI
against a fresh emulator (docs/development.md), or tells two such records apart.
  --example NAME      the example to run (default all; compute adds an update before the destroy)
  --out FILE          write the record there (default: standard output)
  --compare A B       the differences between two records, polls folded (exit 1 when there are any)
  -h, --help          this text`;
  const { values, positionals } = commandLine({
    name: "npm run request-log --",
    usage,
    positionals: true,
    options: { example: { type: "string" }, out: { type: "string" }, compare: { type: "string" } },
  });
  if (values.compare) {
    const other = positionals[0];
    if (positionals.length !== 1) {
      process.stderr.write(`npm run request-log --: --compare takes two files\n\n${usage}\n`);
      process.exit(2);
    }
    const diffs = compare(JSON.parse(readFileSync(values.compare, "utf8")) as Log, JSON.parse(readFileSync(other, "utf8")) as Log);
    console.log(diffs.length ? diffs.join("\n") : "same requests (polls folded)");
    process.exit(diffs.length ? 1 : 0);
  }
  if (positionals.length) {
    process.stderr.write(`npm run request-log --: unexpected argument ${positionals[0]}\n\n${usage}\n`);
    process.exit(2);
  }
  record(values.example ?? "all").then(
    (log) => {
      const text = JSON.stringify(log, null, 1) + "\n";
      if (values.out) writeFileSync(values.out, text);
      else process.stdout.write(text);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
