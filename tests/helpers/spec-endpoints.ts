import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { BASE_MS } from "../../emulator/routes/compute";
import { DB_MS } from "../../emulator/routes/databases";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key } from "./emulator";

/**
 * The endpoints of the three spec documents, read from the spec folder beside the repository
 * (`../shared/spec`) or, without it, as kept in tests/fixtures/spec-endpoints.json; one record of each
 * family made through the API, and the endpoints' paths filled with their ids. Used by the test that every
 * endpoint is served (emulator-endpoints) and by the fuzzing suite (emulator-fuzz.property).
 */

export const SPEC_DIR = path.resolve(__dirname, "../../../shared/spec");
export const KEPT = path.resolve(__dirname, "../fixtures/spec-endpoints.json");
const DOCUMENTS = ["compute-api.md", "databases-api.md", "profile-api.md"];

export interface Endpoint {
  doc: string;
  method: string;
  path: string;
}

/** The rows of the tables of a document's "Endpoints" section, with its abbreviations expanded. */
export function endpointsOf(doc: string): Endpoint[] {
  const text = readFileSync(path.join(SPEC_DIR, doc), "utf8");
  const start = text.indexOf("\n## Endpoints");
  if (start < 0) throw new Error(`${doc} has no "## Endpoints" section`);
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  // "`I` below means `/compute/instances/{computeId}`", "`M` is `/databases/mysql/instances`".
  const abbreviations = new Map<string, string>();
  for (const m of section.matchAll(/`([A-Z])`(?: below)? (?:means|is) `(\/[^`]+)`/g)) abbreviations.set(m[1], m[2]);
  const endpoints: Endpoint[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 4 || !/^(GET|POST|PUT|DELETE|PATCH)$/.test(cells[1])) continue;
    const raw = cells[2].replace(/`/g, "");
    const head = /^([A-Z])(\/.*)?$/.exec(raw);
    let p = raw;
    if (head) {
      const base = abbreviations.get(head[1]);
      if (!base) throw new Error(`${doc}: the abbreviation ${head[1]} (in ${raw}) is not defined in its Endpoints section`);
      p = base + (head[2] ?? "");
    }
    if (!p.startsWith("/")) throw new Error(`${doc}: a path that is not one: ${raw}`);
    endpoints.push({ doc, method: cells[1], path: p });
  }
  return endpoints;
}

const PASS = "Str0ng-Passw0rd!";
const M = "/databases/mysql/instances";
const P = "/databases/postgresql/instances";

/** One record of each family, made through the API on an emulator whose clock the fixture moves. */
export async function fixtures(emu: Emulator, tick: (ms: number) => void): Promise<Record<string, string>> {
  const ok = async (method: string, p: string, body?: unknown) => {
    const r = await call(emu, method, p, { body });
    if (r.status !== 200) throw new Error(`fixture ${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const firstId = async (p: string) => {
    const r = await call(emu, "GET", p);
    const items = Array.isArray(r.body) ? r.body : r.body?.data;
    return r.status === 200 && items?.length ? String(items[0].id) : "1";
  };
  const ids: Record<string, string> = {};
  ids.sshKeyId = String((await ok("POST", "/profile/sshkeys", { label: "key", ssh_key: ed25519Key(1) })).id);
  ids.tokenId = String((await ok("POST", "/profile/tokens", { label: "token", scopes: "*" })).id);
  ids.loginId = await firstId("/profile/logins");
  ids.appId = await firstId("/profile/apps");
  ids.deviceId = await firstId("/profile/devices");
  const vpc = await ok("POST", "/vpcs", { label: "vpc-1", region: "us-east", subnets: [{ label: "sub-1", ipv4: "10.0.0.0/24" }] });
  ids.vpcId = String(vpc.id);
  ids.vpcSubnetId = await firstId(`/vpcs/${vpc.id}/subnets`);
  const instance = await ok("POST", "/compute/instances", {
    label: "web-1",
    region: "us-east",
    type: "c1-standard-2",
    image: "compute/debian12",
    root_pass: PASS,
    backups_enabled: true,
  });
  ids.computeId = String(instance.id);
  tick(BASE_MS.provisioning * 2);
  const I = `/compute/instances/${instance.id}`;
  ids.configId = await firstId(`${I}/configs`);
  ids.diskId = await firstId(`${I}/disks`);
  ids.interfaceId = String((await ok("POST", `${I}/configs/${ids.configId}/interfaces`, { purpose: "vpc", subnet_id: Number(ids.vpcSubnetId) })).id);
  ids.computeBackupId = String((await ok("POST", `${I}/backups`, { label: "snap" })).id);
  tick(BASE_MS.snapshot * 2);
  ids.imageId = String((await ok("POST", "/images", { disk_id: Number(ids.diskId), label: "img" })).id);
  const engines = await ok("GET", "/databases/engines");
  ids.engineId = engines.data.find((e: { engine: string }) => e.engine === "mysql").id;
  const pgEngine = engines.data.find((e: { engine: string }) => e.engine === "postgresql").id;
  ids.pgEngineId = pgEngine;
  const db = { region: "us-east", type: "c1-standard-2" };
  ids.mysqlId = String((await ok("POST", M, { label: "mysql-1", engine: ids.engineId, ...db })).id);
  ids.postgresqlId = String((await ok("POST", P, { label: "pg-1", engine: pgEngine, ...db })).id);
  tick(DB_MS.provisioning * 2);
  await ok("POST", `${M}/${ids.mysqlId}/backups`, { label: "snap1" });
  tick(DB_MS.snapshot * 2);
  ids.databaseBackupId = await firstId(`${M}/${ids.mysqlId}/backups`);
  ids.kernelId = await firstId("/compute/kernels");
  ids.typeId = "c1-standard-2";
  ids.regionId = "us-east";
  tick(3_600_000);
  return ids;
}

/** The path with its parameters filled from the fixtures' ids (a backup of an instance or of a database). */
export function fill(p: string, ids: Record<string, string>, now: Date): string {
  return p.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "backupId") return p.startsWith("/databases/") ? ids.databaseBackupId : ids.computeBackupId;
    if (name === "instanceId") return p.startsWith(P) ? ids.postgresqlId : ids.mysqlId;
    if (name === "year") return String(now.getUTCFullYear());
    if (name === "month") return String(now.getUTCMonth() + 1);
    const id = ids[name];
    if (id === undefined) throw new Error(`no fixture gives the path parameter {${name}} of ${p}`);
    return id;
  });
}

/** The spec's endpoints, read from the spec where it is at hand, else as kept. */
export function specEndpoints(): Endpoint[] {
  const kept = existsSync(KEPT) ? (JSON.parse(readFileSync(KEPT, "utf8")) as Endpoint[]) : [];
  if (!existsSync(SPEC_DIR)) {
    console.log(`No spec folder at ${SPEC_DIR}: walking the ${kept.length} endpoints kept in tests/fixtures/spec-endpoints.json`);
    return kept;
  }
  const read = DOCUMENTS.flatMap(endpointsOf);
  if (process.env.UPDATE_SPEC_ENDPOINTS) writeFileSync(KEPT, `${JSON.stringify(read, null, 1)}\n`);
  else if (JSON.stringify(read) !== JSON.stringify(kept)) {
    throw new Error(`The spec's endpoints are not those kept in ${KEPT}: the spec changed, and UPDATE_SPEC_ENDPOINTS=1 keeps the new list`);
  }
  return read;
}
