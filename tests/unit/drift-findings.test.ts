/**
 * The fresh-eyes review of compute-drift (issue 54), each finding held: a refresh that never reached the stack is not
 * "no drift"; a value cannot end its code span or mention anyone; a report too long for an issue is cut, saying so;
 * fields whose names hold a secret are redacted; standard output that cannot be written is exit 2, not 1.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { MARKDOWN_LIMIT, markdown, reportOf } from "../../provider/drift/report";
import { secretName } from "../../provider/drift/secrets";

const ROOT = path.resolve(__dirname, "..", "..");
const DRIFT = path.join(ROOT, "dist", "provider", "drift", "cli.js");
const fixture = (name: string) => readFileSync(path.join(ROOT, "tests", "fixtures", "drift", name), "utf8");

test("a refresh that lists no resource (the plugin not installed, a JSON of nothing) is not 'no drift': the report cannot be made", () => {
  // What `pulumi refresh --preview-only --json` wrote when the engine could not get the plugin: exit 1, no steps.
  for (const [input, says] of [
    [JSON.stringify({ config: {}, duration: 1200 }), /the refresh did not run/],
    ["{}", /the refresh did not run/],
    [JSON.stringify({ steps: [] }), /the refresh did not run/],
    [
      JSON.stringify({
        sequence: 0,
        timestamp: 1,
        diagnosticEvent: { severity: "error", message: "error: could not find latest version for provider compute" },
      }) +
        "\n" +
        JSON.stringify({ sequence: 1, timestamp: 1, summaryEvent: { result: "failed", isPreview: true } }),
      /the refresh did not run.*could not find latest version for provider compute/,
    ],
  ] as const) {
    const r = reportOf(input, "refresh.json");
    expect([r.made, r.drift, markdown(r).split("\n")[0]]).toEqual([false, false, "### Drift report could not be made"]);
    expect(r.problem).toMatch(says);
  }
});

test("a value with backticks cannot end its code span; a name cannot mention anyone", () => {
  const json = JSON.parse(fixture("refresh-preview-drift.json"));
  const web = json.steps.find((s: any) => s.urn.endsWith("::web"));
  const hostile = "a`` @octocat <b>X</b> [ok](https://e.vil) ``";
  web.newState.outputs.tags = ["web", hostile];
  web.newState.inputs.tags = ["web", hostile];
  const text = markdown(reportOf(JSON.stringify(json), "refresh.json"));
  const line = text.split("\n").find((l) => l.startsWith("  - `tags[1]`"))!;
  // Three backticks around a value whose longest run is two: GitHub renders all of it as code.
  expect(line).toBe('  - `tags[1]`: `"production"` → ``` "a`` @octocat <b>X</b> [ok](https://e.vil) ``" ```');
  const evil = JSON.stringify(JSON.parse(fixture("refresh-preview-drift.json"))).replaceAll("::web", "::web@octocat");
  expect(markdown(reportOf(evil, "refresh.json"))).toContain("- **web@\u200boctocat** (`compute:index:Instance`)");
});

test("a report longer than an issue holds is cut at its resources, saying how many are left out and where they are", () => {
  const json = JSON.parse(fixture("refresh-preview-drift.json"));
  const web = json.steps.find((s: any) => s.urn.endsWith("::web"));
  const many = Array.from({ length: 3000 }, (_, i) => ({ ...web, urn: web.urn.replace("::web", `::web-${String(i).padStart(4, "0")}`) }));
  json.steps.push(...many);
  json.changeSummary.update += many.length;
  const r = reportOf(JSON.stringify(json), "refresh.json");
  const text = markdown(r);
  expect(r.resources.length).toBe(3004);
  expect(text.length).toBeLessThan(65_536);
  expect(text.length).toBeGreaterThan(MARKDOWN_LIMIT - 2_000);
  expect(text).toMatch(
    /- \d+ more drifted resources not listed here, to keep the report within what an issue or a comment holds: `--format json` lists every one\./,
  );
});

test("fields whose names hold a secret are redacted by name too", () => {
  for (const name of ["passphrase", "connectionString", "credentialsJson", "privateKeyPem", "password_hash", "rootPass", "apiKey"])
    expect([name, secretName(name)]).toEqual([name, true]);
  for (const name of ["label", "tags", "region", "type", "hash_algorithm"]) expect([name, secretName(name)]).toEqual([name, false]);
});

test("standard output that cannot be written is exit 2, never 1 (which a job reads as drift)", () => {
  const r = spawnSync(
    "bash",
    ["-c", `"${process.execPath}" "${DRIFT}" --refresh "${path.join(ROOT, "tests", "fixtures", "drift", "refresh-preview-none.json")}" > /dev/full`],
    {
      encoding: "utf8",
    },
  );
  expect(r.status).toBe(2);
});
