/** Section 3: the state's size per resource, from both front doors (sections 4 and 7: scale.ts). */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator/server";
import { bytes, fmt, pluginEnv, ROOT, runCli, type Exported } from "./common";
import { PASS, publicKey } from "./provider";

/** examples/all's state (`pulumi stack export` after `up`), then destroyed. */
async function exportOfAll(dir: string, env: Record<string, string> = {}): Promise<Exported> {
  const emu = await startEmulator({ speed: 0 });
  const stateDir = mkdtempSync(path.join(tmpdir(), "bench-state-"));
  const config = { "compute:apiUrl": emu.url, "all-example:publicKey": publicKey(1) };
  const secrets = {
    "compute:token": emu.token,
    "all-example:rootPass": PASS,
    "all-example:scriptData": '{"greeting":"x"}',
    "all-example:userData": Buffer.from("#cloud-config\n").toString("base64"),
  };
  try {
    await runCli("up", dir, "bench", stateDir, config, secrets, env);
    const exported = JSON.parse((await runCli("export", dir, "bench", stateDir, config, secrets, env)).stdout) as Exported;
    await runCli("destroy", dir, "bench", stateDir, config, secrets, env);
    return exported;
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(path.join(dir, "Pulumi.bench.yaml"), { force: true });
    await emu.close();
  }
}

export async function stateSize(): Promise<string> {
  const dynamic = await exportOfAll(path.join(ROOT, "examples", "all"), pluginEnv());
  const byType = new Map<string, { provider: number; resource: number; plugin?: number }>();
  for (const r of dynamic.deployment.resources ?? []) {
    if (!r.type.startsWith("pulumi-nodejs:dynamic/compute:")) continue;
    const t = r.type.split(":").pop()!;
    const cur = byType.get(t) ?? { provider: 0, resource: 0 };
    byType.set(t, { provider: Math.max(cur.provider, r.inputs?.__provider?.length ?? 0), resource: Math.max(cur.resource, bytes(r)) });
  }
  // The same program on the plugin SDK (its classes take the same inputs): a copy of examples/all importing
  // @pulumi-compute/plugin-sdk, with bench/scale's node_modules (which holds the SDK and the plugin).
  const pluginDir = mkdtempSync(path.join(tmpdir(), "bench-all-plugin-"));
  let pluginProvider = 0;
  try {
    const all = path.join(ROOT, "examples", "all");
    const program = readFileSync(path.join(all, "index.ts"), "utf8");
    if (!program.includes('from "pulumi-compute"')) throw new Error("examples/all/index.ts no longer imports pulumi-compute");
    writeFileSync(path.join(pluginDir, "index.ts"), program.replace('from "pulumi-compute"', 'from "@pulumi-compute/plugin-sdk"'));
    for (const f of ["Pulumi.yaml", "tsconfig.json"]) copyFileSync(path.join(all, f), path.join(pluginDir, f));
    copyFileSync(path.join(ROOT, "bench", "scale", "package.json"), path.join(pluginDir, "package.json"));
    symlinkSync(path.join(ROOT, "bench", "scale", "node_modules"), path.join(pluginDir, "node_modules"));
    const plugin = await exportOfAll(pluginDir, pluginEnv());
    for (const r of plugin.deployment.resources ?? []) {
      if (r.type === "pulumi:providers:compute") pluginProvider = Math.max(pluginProvider, bytes(r));
      const t = /^compute:index:(\w+)$/.exec(r.type)?.[1];
      const cur = t ? byType.get(t) : undefined;
      if (cur) cur.plugin = Math.max(cur.plugin ?? 0, bytes(r));
    }
  } finally {
    rmSync(pluginDir, { recursive: true, force: true });
  }
  return [
    "## 3. State size",
    "",
    "Bytes in `pulumi stack export` of examples/all (every resource type; the largest of each type; compact JSON). `__provider` is stored twice per resource (inputs and outputs), and is the same for every resource of a type. **plugin form**: the same program on `@pulumi-compute/plugin-sdk` (type `compute:index:<Resource>`, served by pulumi-resource-compute), which has no `__provider`; its one default provider resource (`pulumi:providers:compute`, the config) takes " +
      `${pluginProvider} bytes per stack. Target: \`__provider\` under 2 KB.`,
    "",
    "| Resource | `__provider` | whole resource | plugin form |",
    "|---|---|---|---|",
    ...[...byType]
      .sort()
      .map(([t, v]) => `| ${t} | ${v.provider} | ${v.resource} | ${v.plugin === undefined ? "?" : `${v.plugin} (${fmt(v.plugin / v.resource, 2)}x)`} |`),
    "",
  ].join("\n");
}
