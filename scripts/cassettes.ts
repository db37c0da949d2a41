#!/usr/bin/env node
/**
 * Makes tests/fixtures/cassettes/*.json from the official Go client's recorded conversations (linode/linodego,
 * test/integration/fixtures/<name>.yaml at COMMIT, go-vcr recordings of the real API), renamed to this API as
 * tests/fixtures/real-answers/README.md says ("Renames"): the requests the spec covers and the events the
 * client polls to wait, a run of the same GET folded into its last answer (`polls`), the others dropped (the
 * next kept one `after: "outside"`). tests/fixtures/cassettes/README.md says what the files hold;
 * tests/integration/cassette-replay.test.ts replays them.
 *
 *   node dist/scripts/cassettes.js --linodego DIR [--out DIR] [--check] [NAME...]
 *
 * DIR is a git directory of linodego (a clone, or a bare one) that has COMMIT. It parses YAML with js-yaml (a dev dependency),
 * which is in node_modules as a dependency of @pulumi/pulumi (not one of this project's own).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { commandLine } from "./command-line";
import { repoRoot } from "./root";

export const COMMIT = "87439ea13268d80fbe792be6879bf02e0924b3db";

/** The cassettes of what the spec covers. */
export const CASSETTES = [
  "Example",
  "ExampleGetImage_missing",
  "ExampleGetKernel_specific",
  "ExampleGetType_missing",
  "ExampleListImages_all",
  "ExampleListImages_badfilter",
  "ExampleListImages_notfound",
  "ExampleListKernels_all",
  "ExampleListKernels_allWithOpts",
  "ExampleListKernels_filtered",
  "ExampleListKernels_page1",
  "ExampleListTypes_all",
  "TestDatabase_Engine",
  "TestDatabase_List",
  "TestDatabase_MySQL_Suite",
  "TestDatabase_Postgres_Suite",
  "TestDatabase_Type",
  "TestImage_CloudInit",
  "TestImage_CreateUpload",
  "TestImage_GetFound",
  "TestImage_GetMissing",
  "TestImage_Upload",
  "TestImages_List",
  "TestInstanceBackups_List",
  "TestInstance_Clone",
  "TestInstance_ConfigInterface_Update",
  "TestInstance_ConfigInterfaces_AppendDelete",
  "TestInstance_ConfigInterfaces_List",
  "TestInstance_ConfigInterfaces_Reorder",
  "TestInstance_ConfigInterfaces_Update",
  "TestInstance_Config_Update",
  "TestInstance_Configs_List",
  "TestInstance_Disk_ListMultiple_Primary",
  "TestInstance_Disk_ListMultiple_Secondary",
  "TestInstance_Disk_ResetPassword",
  "TestInstance_Disk_Resize",
  "TestInstance_Disks_List",
  "TestInstance_Get",
  "TestInstance_Rebuild",
  "TestInstance_Resize",
  "TestInstance_withMetadata",
  "TestInstances_List",
  "TestProfileLogins_List",
  "TestProfile_Get",
  "TestProfile_Update",
  "TestRegionsAvailability_List",
  "TestRegions_List",
  "TestSSHKey_GetFound",
  "TestSSHKey_GetMissing",
  "TestSSHKey_Update",
  "TestSSHKeys_List",
  "TestToken_GetFound",
  "TestToken_GetMissing",
  "TestToken_GetNoExpiry",
  "TestTokens_List",
  "TestTokens_Update",
  "TestType_GetFound",
  "TestType_GetMissing",
  "TestTypes_List",
  "TestTypes_RegionSpecific",
  "TestVLANs_GetIPAMAddress",
  "TestVLANs_List",
  "TestVPC_CreateGet",
  "TestVPC_Create_Invalid",
  "TestVPC_List",
  "TestVPC_ListAllIPAddresses",
  "TestVPC_ListIPAddresses",
  "TestVPC_Subnet_Create",
  "TestVPC_Subnet_Create_Invalid_data",
  "TestVPC_Subnet_List",
  "TestVPC_Subnet_Update",
  "TestVPC_Subnet_Update_Invalid_Label",
  "TestVPC_Subnet_WithInstance",
  "TestVPC_Update",
  "TestVPC_Update_Invalid",
];

/** The paths kept (renamed): what the spec covers, and the events the client waits on. */
export const KEPT = ["/compute/instances", "/compute/types", "/compute/kernels", "/images", "/vpcs", "/regions", "/databases", "/profile", "/account/events"];

/** One interaction as the JSON holds it (keys in this order). */
export interface Interaction {
  /** The index in the cassette's `interactions`. */
  i: number;
  method: string;
  path: string;
  /** Requests outside the spec came just before (the client waited on events). */
  after?: "outside";
  query?: string;
  /** The `X-Filter` header, parsed. */
  filter?: unknown;
  body?: unknown;
  status: number;
  response: unknown;
  /** The client sent this GET this many times in a row (waiting for a state): the last answer is kept. */
  polls?: number;
}

export interface CassetteFile {
  cassette: string;
  commit: string;
  recorded: number;
  outside: number;
  limited: number;
  interactions: Interaction[];
}

/** go-vcr's YAML (version 1), the parts read. */
interface VcrInteraction {
  request: { body: string; headers?: Record<string, string[]>; url: string; method: string };
  response: { body: string; code: number };
}

const KEYS: Record<string, string> = {
  linode_id: "compute_id",
  linodes: "computes",
  lish_auth_method: "console_auth_method",
  add_linodes: "add_computes",
  linode: "compute",
};

const renameKey = (k: string) => KEYS[k] ?? k.replace(/linode/g, "compute");

function renameString(s: string): string {
  if (s.startsWith("/v4/")) s = s.slice(3);
  else if (s.startsWith("/v4beta/")) s = s.slice(7);
  return s
    .replace(/linode/g, "compute")
    .replace(/Linode/g, "Compute")
    .replace(/LINODE/g, "COMPUTE");
}

/** A recorded JSON value renamed: keys and string values (tests/fixtures/real-answers/README.md "Renames"). */
export function rename(v: unknown): unknown {
  if (typeof v === "string") return renameString(v);
  if (Array.isArray(v)) return v.map(rename);
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [renameKey(k), rename(x)]));
  return v;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** `https://api.linode.com/v4beta/linode/kernels/linode%2Flatest-64bit?page=2` → path and query, renamed. */
function splitUrl(url: string): { path: string; query?: string } {
  const u = new URL(url);
  const p = decode(u.pathname.replace(/^\/v4(beta)?(?=\/)/, ""))
    .split("/")
    .map((seg) => (seg === "linode" ? "compute" : seg))
    .join("/");
  const query = u.search.replace(/^\?/, "");
  return query ? { path: p, query } : { path: p };
}

const parseJson = (text: string): unknown => (text === "" ? null : JSON.parse(text));

/**
 * One cassette converted: its YAML text → the JSON the replay reads. `kept`: the paths kept (without
 * `/account/events` it makes the files as they were before the emulator served events, the events dropped).
 */
export function convert(name: string, yamlText: string, load: (text: string) => unknown, kept: string[] = KEPT): CassetteFile {
  const doc = load(yamlText) as { interactions?: VcrInteraction[] };
  const recorded = doc.interactions ?? [];
  const out: CassetteFile = {
    cassette: `test/integration/fixtures/${name}.yaml`,
    commit: COMMIT,
    recorded: recorded.length,
    outside: 0,
    limited: 0,
    interactions: [],
  };
  let dropped = false;
  recorded.forEach((it, i) => {
    const { path: p, query } = splitUrl(it.request.url);
    if (it.response.code === 429) {
      out.limited++;
      dropped = true;
      return;
    }
    if (!kept.some((k) => p === k || p.startsWith(`${k}/`))) {
      out.outside++;
      dropped = true;
      return;
    }
    const filterHeader = Object.entries(it.request.headers ?? {}).find(([k]) => k.toLowerCase() === "x-filter")?.[1]?.[0];
    const one = ordered({
      i,
      method: it.request.method,
      path: p,
      after: dropped ? "outside" : undefined,
      query,
      filter: filterHeader !== undefined ? rename(JSON.parse(filterHeader)) : undefined,
      body: it.request.body ? rename(JSON.parse(it.request.body)) : undefined,
      status: it.response.code,
      response: rename(parseJson(it.response.body)),
    });
    dropped = false;
    // A run of the same GET (the client polling until a state): its last answer, with how many were sent.
    const last = out.interactions[out.interactions.length - 1];
    if (last && one.method === "GET" && last.method === "GET" && one.after === undefined && sameRequest(last, one)) {
      out.interactions[out.interactions.length - 1] = ordered({ ...one, after: last.after, polls: (last.polls ?? 1) + 1 });
      return;
    }
    out.interactions.push(one);
  });
  return out;
}

const sameRequest = (a: Interaction, b: Interaction) => a.path === b.path && a.query === b.query && JSON.stringify(a.filter) === JSON.stringify(b.filter);

/** The keys in the file's order. */
function ordered(r: Interaction): Interaction {
  const { i, method, path: p, after, query, filter, body, status, response, polls } = r;
  const all = { i, method, path: p, after, query, filter, body, status, response, polls };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as unknown as Interaction;
}

export const serialize = (c: CassetteFile) => `${JSON.stringify(c, null, 1)}\n`;

/** The git directory of a linodego clone given on the command line (its .git, or itself when bare). */
function gitDir(dir: string): string {
  const dotGit = path.join(dir, ".git");
  return existsSync(dotGit) ? dotGit : dir;
}

function main(): void {
  const { values, positionals } = commandLine({
    name: "node dist/scripts/cassettes.js",
    usage: [
      "usage: node dist/scripts/cassettes.js --linodego DIR [--out DIR] [--check] [NAME...]",
      `  --linodego DIR  a git directory of github.com/linode/linodego (a clone or a bare one) with commit ${COMMIT}`,
      "  --out DIR       where the JSON files go (default tests/fixtures/cassettes)",
      "  --check         write nothing: list the files that would change, exit 1 when any",
      "  NAME...         only these cassettes (default: every one the replay reads)",
      "Reads test/integration/fixtures/NAME.yaml at that commit (git show), renames it to this API and writes NAME.json.",
      "Needs js-yaml (a dev dependency).",
    ].join("\n"),
    options: { linodego: { type: "string" }, out: { type: "string" }, check: { type: "boolean" } },
    positionals: true,
  });
  if (!values.linodego) {
    process.stderr.write("node dist/scripts/cassettes.js: --linodego DIR is required (see --help)\n");
    process.exit(2);
  }
  const unknown = positionals.filter((n) => !CASSETTES.includes(n));
  if (unknown.length) {
    process.stderr.write(`node dist/scripts/cassettes.js: not a cassette the replay reads: ${unknown.join(", ")}\n`);
    process.exit(2);
  }
  let load: (text: string) => unknown;
  try {
    load = (require("js-yaml") as { load: (text: string) => unknown }).load;
  } catch {
    process.stderr.write("node dist/scripts/cassettes.js: js-yaml is not in node_modules (npm install js-yaml)\n");
    process.exit(1);
  }
  const git = gitDir(path.resolve(values.linodego));
  try {
    execFileSync("git", ["--git-dir", git, "cat-file", "-e", `${COMMIT}^{commit}`], { stdio: "ignore" });
  } catch {
    process.stderr.write(`node dist/scripts/cassettes.js: ${values.linodego} is not a git directory of linodego with commit ${COMMIT}\n`);
    process.exit(1);
  }
  const outDir = path.resolve(values.out ?? path.join(repoRoot(), "tests", "fixtures", "cassettes"));
  let changed = 0;
  for (const name of positionals.length ? positionals : CASSETTES) {
    const yamlText = execFileSync("git", ["--git-dir", git, "show", `${COMMIT}:test/integration/fixtures/${name}.yaml`], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    const text = serialize(convert(name, yamlText, load));
    const file = path.join(outDir, `${name}.json`);
    const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (before === text) continue;
    changed++;
    if (values.check) process.stdout.write(`${file}: would change\n`);
    else writeFileSync(file, text);
  }
  process.stdout.write(`${changed} of ${positionals.length || CASSETTES.length} cassettes ${values.check ? "would change" : "written"}\n`);
  if (values.check && changed) process.exit(1);
}

if (require.main === module) main();
