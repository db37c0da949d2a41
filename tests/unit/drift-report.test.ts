/**
 * The drift report (provider/drift/) on the CLI's JSON as Pulumi CLI v3.274.1 wrote it, recorded by
 * tests/e2e/drift.e2e.test.ts into tests/fixtures/drift/ (DRIFT_RECORD=1): a YAML program on the plugin changed out
 * of band through the emulator (an instance renamed, a tag, an alert and its type changed, a profile's interface
 * relabelled, a database's allow list widened and its password reset, an SSH key deleted), and the dynamic classes'
 * SSH key. Each form of a refresh reads the same drift; what the engine does not name is not drift; a secret is never
 * printed, even given in plain text; what is not a refresh's JSON is refused, saying why. And docs/drift.md's
 * scheduled job, its steps run as written (the command from dist/, `gh` a stub).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NotARefresh, readEngineRun, splitDocuments } from "../../provider/drift/input";
import { changedPaths, parsePath, valueAt } from "../../provider/drift/paths";
import { driftReport, failedReport, markdown, reportOf, type DriftReport } from "../../provider/drift/report";
import { SECRET_FIELDS, secretPath } from "../../provider/drift/secrets";

const ROOT = path.resolve(__dirname, "..", "..");
const text = (name: string) => readFileSync(path.join(ROOT, "tests", "fixtures", "drift", name), "utf8");
const report = (name: string) => reportOf(text(name), name);

/** Each drifted resource: what happened, and its fields `path: before → after`. */
const drifted = (r: DriftReport) =>
  Object.fromEntries(
    r.resources.map((x) => [
      x.name,
      [x.happened, ...x.fields.map((f) => `${f.path}: ${JSON.stringify(f.before) ?? "none"} → ${JSON.stringify(f.after) ?? "none"}`)],
    ]),
  );
const EXPECTED = {
  db: ["changed", 'allowList[1]: none → "0.0.0.0/0"'],
  main: ["changed", 'interfaces[1].label: "backend" → "frontend"'],
  spare: ["deleted"],
  web: ["changed", "alerts.cpu: 90 → 50", 'label: "web-1" → "web-renamed"', 'tags[1]: "production" → "staging"', 'type: "c1-standard-2" → "c1-standard-4"'],
};

test("`pulumi refresh --preview-only --json`: the report as a reviewer reads it", () => {
  const r = report("refresh-preview-drift.json");
  expect(markdown(r)).toBe(
    [
      "### Drift in stack prod: 4 resources",
      "",
      "Stack **prod** of project drift-e2e, from `pulumi refresh --preview-only --json`: 6 resources checked, 4 drifted.",
      "",
      "- **db** (`compute:index:MysqlDatabase`): changed out of band",
      '  - `allowList[1]`: (none) → `"0.0.0.0/0"` (added)',
      "- **main** (`compute:index:Config`): changed out of band",
      '  - `interfaces[1].label`: `"backend"` → `"frontend"`',
      "- **spare** (`compute:index:SshKey`): deleted out of band (`pulumi up` creates it again)",
      "- **web** (`compute:index:Instance`): changed out of band",
      "  - `alerts.cpu`: `90` → `50`",
      '  - `label`: `"web-1"` → `"web-renamed"`',
      '  - `tags[1]`: `"production"` → `"staging"`',
      '  - `type`: `"c1-standard-2"` → `"c1-standard-4"`',
      "",
      "`pulumi refresh` records what was found in the state; `pulumi up` puts the program's values back.",
      "",
    ].join("\n"),
  );
  expect(r).toMatchObject({
    made: true,
    complete: true,
    drift: true,
    verdict: "Drift in stack prod: 4 resources",
    stack: "prod",
    project: "drift-e2e",
    checked: 6,
  });
  expect(drifted(r)).toEqual(EXPECTED);
  expect(r.resources.find((x) => x.name === "db")?.fields).toEqual([
    { path: "allowList[1]", change: "added", after: "0.0.0.0/0", secret: false, replaces: false },
  ]);
});

test("each form of the same refresh reads the same drift: streamed, applied, `preview --refresh` (against the program), with --show-sames", () => {
  const forms = {
    "refresh-preview-stream-drift.jsonl": ["pulumi refresh --preview-only --json", "state"],
    "refresh-yes-drift.json": ["pulumi refresh --yes --json", "state"],
    "preview-refresh-drift.json": ["pulumi preview --refresh --json", "program"],
  };
  for (const [file, [source, baseline]] of Object.entries(forms)) {
    const r = report(file);
    expect([file, r.source, r.baseline, r.checked, drifted(r)]).toEqual([file, source, baseline, 6, EXPECTED]);
  }
  // The refresh --yes's JSON is its digest, then the events of the refresh it made.
  expect(splitDocuments(text("refresh-yes-drift.json")).length).toBeGreaterThan(10);
  expect(markdown(report("refresh-yes-drift.json"))).toContain("The refresh was applied: the state now records what was found.");
  // `preview --refresh --show-sames`: the program's `same` steps beside the refreshes.
  expect(JSON.parse(text("preview-refresh-drift.json")).steps.filter((s: { op: string }) => s.op === "same").length).toBeGreaterThan(1);
  expect(markdown(report("preview-refresh-drift.json"))).toContain("Each field reads what the program declares → what the cloud has now");
});

test("what the engine's detailed diff does not name is not drift: outputs the service moves by itself, a secret output reset", () => {
  const steps = JSON.parse(text("refresh-preview-drift.json")).steps as Array<{ urn: string; oldState: any; newState: any; detailedDiff: object }>;
  const moved = (name: string) => {
    const s = steps.find((x) => x.urn.endsWith(`::${name}`))!;
    return Object.keys(s.newState.outputs).filter((k) => JSON.stringify(s.oldState.outputs[k]) !== JSON.stringify(s.newState.outputs[k]));
  };
  // The states differ in more outputs than the engine names: the host and boot state after the resize, the prices,
  // the cluster's `updated` (its password was reset too, "[secret]" on both sides).
  expect(moved("web")).toEqual(expect.arrayContaining(["hostUuid", "booted", "monthlyPrice", "label", "tags", "type"]));
  expect(moved("db")).toEqual(expect.arrayContaining(["updated", "allowList"]));
  const r = report("refresh-preview-drift.json");
  expect(r.resources.flatMap((x) => x.fields.map((f) => f.path))).toEqual(["allowList[1]", "interfaces[1].label", "alerts.cpu", "label", "tags[1]", "type"]);
});

test("a stack as deployed: no drift; a refresh that failed: incomplete, each error named", () => {
  const none = report("refresh-preview-none.json");
  expect([none.verdict, none.drift, none.checked, markdown(none).split("\n")[0]]).toEqual(["No drift in stack prod", false, 6, "### No drift in stack prod"]);
  const failed = report("refresh-preview-failed.json");
  expect(failed).toMatchObject({
    made: true,
    complete: false,
    checked: 0,
    unreadable: 4,
    verdict: "Drift check incomplete for stack prod: the refresh failed (5 errors)",
  });
  expect(failed.errors.map((e) => e.replace(/ \(the API token is missing.*\)$/, ""))).toEqual([
    "db: Preview failed: cannot read MySQL database 1: the API answered HTTP 401: Invalid Token",
    "key: Preview failed: cannot read SSH key 1: the API answered HTTP 401: Invalid Token",
    "spare: Preview failed: cannot read SSH key 2: the API answered HTTP 401: Invalid Token",
    "web: Preview failed: cannot read instance 1: the API answered HTTP 401: Invalid Token",
    "preview failed",
  ]);
  expect(markdown(failed)).toContain("0 resources checked, 0 drifted, 4 could not be read.");
});

test("the dynamic classes (no detailed diff): the digest counts the change without naming it; a stream names it, its inputs compared; a deletion", () => {
  const digest = report("dynamic-refresh-preview-drift.json");
  expect([digest.verdict, digest.unnamed, digest.resources]).toEqual(["Drift in stack drift-ts: 1 resource", 1, []]);
  expect(markdown(digest)).toContain("Run the refresh with `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true` to name it.");
  const stream = report("dynamic-refresh-preview-stream-drift.jsonl");
  expect([drifted(stream), stream.resources[0].fieldsFrom]).toEqual([{ "deploy-key": ["changed", 'label: "deploy-key" → "edited-by-hand"'] }, "compared"]);
  expect(markdown(stream)).toContain("changed out of band (fields compared by compute-drift: the engine gives no detailed diff for it,");
  // Its inputs, as its provider's diff compares them: an output that moved is not drift. A resource the program only
  // reads (`get`, external) is compared on its outputs, as the engine compares it.
  const lines = text("dynamic-refresh-preview-stream-drift.jsonl").split("\n");
  const at = lines.findIndex((l) => l.includes('"resOutputsEvent"') && l.includes("::deploy-key"));
  const event = JSON.parse(lines[at]);
  event.resOutputsEvent.metadata.new.outputs.lastUsed = "2026-12-02T07:00:00";
  const moved = (external: boolean) => {
    event.resOutputsEvent.metadata.old.external = external;
    lines[at] = JSON.stringify(event);
    return drifted(reportOf(lines.join("\n"), "events.jsonl"))["deploy-key"];
  };
  expect([moved(false), moved(true)]).toEqual([
    ["changed", 'label: "deploy-key" → "edited-by-hand"'],
    ["changed", 'label: "deploy-key" → "edited-by-hand"', 'lastUsed: none → "2026-12-02T07:00:00"'],
  ]);
  expect(drifted(report("dynamic-refresh-preview-deleted.json"))).toEqual({ "deploy-key": ["deleted"] });
});

test("a secret is never printed: the fields schema.json marks secret, names like a secret's, and the engine's envelopes, even in plain text", () => {
  const digest = JSON.parse(text("refresh-preview-drift.json"));
  const step = (name: string) => digest.steps.find((s: { urn: string }) => s.urn.endsWith(`::${name}`));
  const plain = ["Old-R00t-Pass!1", "New-R00t-Pass!2", "db-password-old", "db-password-new", "I2Nsb3VkLWNvbmZpZw==", "aws-master-pass", "enveloped-tag"];
  const web = step("web");
  Object.assign(web.oldState.inputs, { rootPass: plain[0], metadata: { userData: "old" } });
  Object.assign(web.newState.inputs, { rootPass: plain[1], metadata: { userData: plain[4] } });
  web.newState.inputs.tags[0] = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: `"${plain[6]}"` };
  Object.assign(web.detailedDiff, {
    rootPass: { kind: "update", inputDiff: true },
    "metadata.userData": { kind: "update-replace", inputDiff: true },
    "tags[0]": { kind: "update", inputDiff: true },
  });
  const db = step("db");
  db.oldState.outputs.password = plain[2];
  db.newState.outputs.password = plain[3];
  db.detailedDiff.password = { kind: "update", inputDiff: false };
  // Another provider's resource: a field named like a secret.
  const urn = "urn:pulumi:prod::drift-e2e::aws:rds/instance:Instance::legacy";
  const rds = (masterPassword: string) => ({ type: "aws:rds/instance:Instance", inputs: { masterPassword, dbName: "app" } });
  digest.steps.push({ op: "update", urn, oldState: rds("x"), newState: rds(plain[5]), detailedDiff: { masterPassword: { kind: "update", inputDiff: true } } });
  const r = reportOf(JSON.stringify(digest), "digest.json");
  const md = markdown(r);
  for (const out of [md, JSON.stringify(r)]) for (const p of plain) expect(out).not.toContain(p);
  const lines = md.split("\n");
  expect(lines).toEqual(
    expect.arrayContaining([
      "  - `rootPass`: `[secret]` → `[secret]` (secret: value not shown)",
      "  - `metadata.userData`: `[secret]` → `[secret]` (secret: value not shown)",
      '  - `tags[0]`: `"web"` → `[secret]` (secret: value not shown)',
      "  - `password`: `[secret]` → `[secret]` (secret: value not shown)",
      "  - `masterPassword`: `[secret]` → `[secret]` (secret: value not shown)",
      "- **web** (`compute:index:Instance`): changed out of band (`pulumi up` replaces it to put it back)",
    ]),
  );
  // A secret's envelope inside a value that is not itself secret: the rest shown, the envelope not.
  const nested = driftReport(
    readEngineRun([
      {
        steps: [
          { op: "refresh", urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s" },
          {
            op: "update",
            urn: "urn:pulumi:s::p::compute:index:Vpc::net",
            oldState: { type: "compute:index:Vpc", inputs: { description: "a" } },
            newState: {
              type: "compute:index:Vpc",
              inputs: {
                description: {
                  note: "b",
                  apiKey: "k-123",
                  sig: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: "p-456" },
                },
              },
            },
            detailedDiff: { description: { kind: "update", inputDiff: true } },
          },
        ],
      },
    ]),
  );
  expect(nested.resources[0].fields[0].after).toEqual({ note: "b", apiKey: "[secret]", sig: "[secret]" });
});

test("the secret fields are the ones schema.json marks secret", () => {
  const schema = JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8")) as {
    resources: Record<string, { properties?: Record<string, { secret?: boolean }>; inputProperties?: Record<string, { secret?: boolean }> }>;
  };
  const marked: Record<string, string[]> = {};
  for (const [type, r] of Object.entries(schema.resources)) {
    const names = Object.entries({ ...r.properties, ...r.inputProperties }).flatMap(([k, v]) => (v.secret ? [k] : []));
    if (names.length) marked[type.split(":")[2]] = [...new Set(names)].sort();
  }
  expect(SECRET_FIELDS).toEqual(marked);
  // By type, for the plugin's resources and the dynamic classes alike; a name like a secret's on any resource.
  expect([secretPath("compute:index:MysqlDatabase", ["username"]), secretPath("pulumi-nodejs:dynamic/compute:MysqlDatabase", ["username"])]).toEqual([
    true,
    true,
  ]);
  expect([secretPath("compute:index:SshKey", ["label"]), secretPath("compute:index:SshKey", ["sshKey"]), secretPath("x:y:Z", ["db_password"])]).toEqual([
    false,
    false,
    true,
  ]);
});

test("what is not a refresh's JSON is refused, saying why; the report then says it could not be made", () => {
  const root = (op: string) => ({ op, urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s" });
  const web = { op: "update", urn: "urn:pulumi:s::p::compute:index:Instance::web", detailedDiff: { label: { kind: "update", inputDiff: true } } };
  const main = { op: "refresh", urn: "urn:pulumi:s::p::compute:index:Config::main" };
  // A preview (its refreshes of `refreshBeforeUpdate` resources come before the stack's step); a refresh with --run-program (after).
  expect(() => readEngineRun([{ steps: [root("same"), web] }])).toThrow(NotARefresh);
  expect(() => readEngineRun([{ steps: [main, root("same"), web] }])).toThrow(NotARefresh);
  expect(readEngineRun([{ steps: [root("same"), main, web] }]).observations.map((o) => o.outcome)).toEqual(["same", "changed"]);
  expect(() => readEngineRun([{ version: 3, deployment: {} }])).toThrow("this is a stack's export (`pulumi stack export`), not a refresh");
  expect(() => readEngineRun([{ webMonthly: 13.14 }])).toThrow(/document 1 is not the engine's JSON/);
  expect(() => readEngineRun([])).toThrow(/it holds no JSON/);
  expect(() => readEngineRun([{ steps: [] }, { steps: [] }])).toThrow("it holds 2 digests: give the output of one run");
  expect(() => splitDocuments('{"a": 1}\nerror: no stack named prod\n')).toThrow("not JSON at line 2: error: no stack named prod");
  expect(() => splitDocuments('{"a": "}{", "b": [1, 2')).toThrow("it ends inside a JSON document (cut short?)");
  expect(splitDocuments('{"a": "}\\"{"}\n{"b": 2}\n')).toEqual([{ a: '}"{' }, { b: 2 }]);
  const r = reportOf("", "refresh.json", "prod");
  expect([r.made, r.verdict, r.problem]).toEqual([
    false,
    "Drift report for stack prod could not be made",
    "refresh.json: it holds no JSON (empty: did the command fail before it ran? its error is in the job's log)",
  ]);
  expect(markdown(failedReport("a wrong argument: --bogus")).split("\n").slice(0, 3)).toEqual([
    "### Drift report could not be made",
    "",
    "The report could not be made: a wrong argument: --bogus.",
  ]);
});

test("property paths: parsed, read, and compared where the engine names none", () => {
  expect(["label", "alerts.cpu", "tags[1]", "interfaces[1].label", 'tags["a.b"].c', "a[*]"].map(parsePath)).toEqual([
    ["label"],
    ["alerts", "cpu"],
    ["tags", 1],
    ["interfaces", 1, "label"],
    ["tags", "a.b", "c"],
    ["a", "*"],
  ]);
  expect(["", "a..b", "a.", "a[x]", "a[1"].map(parsePath)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  const v = { interfaces: [{ label: "x" }], n: null };
  expect([valueAt(v, ["interfaces", 0, "label"]), valueAt(v, ["interfaces", 1]), valueAt(v, ["n"]), valueAt(v, ["n", "x"])]).toEqual([
    { found: true, value: "x" },
    { found: false },
    { found: true, value: null },
    { found: false },
  ]);
  expect(changedPaths("", { a: 1, tags: ["x", "y"], o: { k: 1 }, "a.b": 1 }, { a: 2, tags: ["x"], o: { k: 1, j: 2 }, "a.b": 2 })).toEqual([
    ["a", "update"],
    ['["a.b"]', "update"],
    ["o.j", "add"],
    ["tags[1]", "delete"],
  ]);
});

test("docs/drift.md: its sample report is the command's; its scheduled job is on a schedule; its steps, run as written, report, fail on drift, post the report", () => {
  const { load } = require("js-yaml") as { load: (text: string) => any };
  const doc = readFileSync(path.join(ROOT, "docs", "drift.md"), "utf8");
  // The page's sample report is this fixture's, as the command writes it.
  expect(doc).toContain("```markdown\n" + markdown(report("refresh-preview-drift.json")) + "```");
  const block = /```yaml\n([\s\S]*?)```/.exec(doc)![1];
  const workflow = load(block);
  expect(workflow.on.schedule[0].cron).toMatch(/^(\S+ ){4}\S+$/);
  const steps: Array<{ name?: string; id?: string; if?: string; run?: string; "continue-on-error"?: boolean }> = workflow.jobs.drift.steps;
  const step = (name: string) => steps.find((x) => x.name === name)!;
  expect(step("Tools").run).toBe("npm install --prefix ci-tools @pulumi-compute/pipeline@0.1.0");
  expect(step("Refresh, changing nothing")).toMatchObject({ "continue-on-error": true, run: expect.stringContaining("pulumi refresh --preview-only --json") });
  expect([step("Summary").if, step("Open or update the drift issue").if]).toEqual(["always()", "always() && steps.drift.outcome != 'success'"]);
  const dir = mkdtempSync(path.join(tmpdir(), "drift-job-"));
  try {
    // `gh` records what it is asked; `ci-tools/node_modules/.bin/compute-drift` is this repository's build of it.
    mkdirSync(path.join(dir, "bin"));
    writeFileSync(path.join(dir, "bin", "gh"), `#!/usr/bin/env bash\necho "gh $*" >> "${dir}/gh.log"\n`);
    chmodSync(path.join(dir, "bin", "gh"), 0o755);
    const env = { ...process.env, PATH: `${path.join(dir, "bin")}:${process.env.PATH}`, GITHUB_STEP_SUMMARY: path.join(dir, "summary.md") };
    const sh = (name: string) => {
      const cmd = step(name).run!.replace(
        "ci-tools/node_modules/.bin/compute-drift",
        `"${process.execPath}" "${path.join(ROOT, "dist", "provider", "drift", "cli.js")}"`,
      );
      return spawnSync("bash", ["-e", "-c", cmd], { cwd: dir, env, encoding: "utf8" }).status;
    };
    // Nothing ran (the report step could not start): the summary says so rather than nothing.
    expect(sh("Summary")).toBe(0);
    expect(readFileSync(path.join(dir, "summary.md"), "utf8")).toBe("### Drift check failed: compute-drift did not run (see the job's log)\n");
    rmSync(path.join(dir, "summary.md"));
    copyFileSync(path.join(ROOT, "tests", "fixtures", "drift", "refresh-preview-drift.json"), path.join(dir, "refresh.json"));
    expect(sh("Drift report")).toBe(1);
    expect([sh("Summary"), sh("Open or update the drift issue")]).toEqual([0, 0]);
    expect(readFileSync(path.join(dir, "summary.md"), "utf8")).toBe(markdown(report("refresh-preview-drift.json")));
    expect(readFileSync(path.join(dir, "gh.log"), "utf8").split("\n").slice(1, 3)).toEqual([
      "gh issue list --label drift --state open --json number --jq .[].number",
      "gh issue create --label drift --title Drift in stack prod: 4 resources --body-file drift.md",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
