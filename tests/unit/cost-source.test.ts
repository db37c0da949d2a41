/**
 * The checks that keep the cost report from misleading (provider/cost/source.ts). A preview without --show-sames
 * leaves out the resources it does not change: nothing in it says what they were, so an export cannot stand in for
 * them (compute-cost refuses such a preview). An export given beside a whole preview must be the state it was made
 * from; each case is one a user met: an export taken before the last `up` (a resource changed, or one missing, even
 * one the change leaves alone), one taken after a later `up`, another stack's, an empty one; and the right one.
 */
import { listsEverything, mismatch, previewErrors, previewStack, unlisted } from "../../provider/cost/source";

const urn = (name: string, type = "compute:index:Instance", stack = "prod") => `urn:pulumi:${stack}::app::${type}::${name}`;
const root = { urn: urn("app-prod", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack", modified: "t0" };
const provider = { urn: urn("default_0_1_0", "pulumi:providers:compute"), type: "pulumi:providers:compute", modified: "t0" };
const res = (name: string, modified: string, id = name) => ({ urn: urn(name), type: "compute:index:Instance", id, modified });

// The stack now: web (changed by the preview), db and cache (left alone).
const state = { deployment: { resources: [root, provider, res("web", "t1"), res("db", "t1"), res("cache", "t2")] } };
// The preview with --show-sames: every resource, each as the preview found it.
const preview = {
  steps: [
    { op: "same", urn: root.urn, oldState: root },
    { op: "update", urn: urn("web"), oldState: res("web", "t1") },
    { op: "same", urn: urn("db"), oldState: res("db", "t1") },
    { op: "same", urn: urn("cache"), oldState: res("cache", "t2") },
  ],
  changeSummary: { same: 3, update: 1 },
};

test("a preview with --show-sames lists everything; one without it leaves resources out, which no export can stand in for", () => {
  expect([unlisted(preview), listsEverything(preview)]).toEqual([0, true]);
  const partial = { steps: preview.steps.slice(0, 2), changeSummary: preview.changeSummary };
  expect([unlisted(partial), listsEverything(partial)]).toEqual([2, false]);
  expect(previewStack(preview)).toEqual({ stack: "prod", project: "app" });
});

test("the state the preview was made from matches", () => {
  expect(mismatch(preview, state)).toBeUndefined();
});

test("an export taken before the last up is refused, even where that up changed only a resource this change leaves alone", () => {
  // cache was modified by the last up (t2); the export has it as it was (t1).
  const before = { deployment: { resources: [root, provider, res("web", "t1"), res("db", "t1"), res("cache", "t1")] } };
  expect(mismatch(preview, before)).toMatch(
    /^cache in the state is not as the preview found it \(modified t1, the preview's t2\): the stack changed between the export and the preview/,
  );
  // cache not made yet when it was exported.
  const noCache = { deployment: { resources: [root, provider, res("web", "t1"), res("db", "t1")] } };
  expect(mismatch(preview, noCache)).toMatch(/^the state has no cache, which the preview finds in the stack \(same\)/);
});

test("an export taken after a later up (a resource more) is refused", () => {
  const after = { deployment: { resources: [...state.deployment.resources, res("extra", "t3")] } };
  expect(mismatch(preview, after)).toMatch(/^the state has extra, which the preview does not find in the stack/);
});

test("another stack's export, and an empty one, are refused", () => {
  const other = { deployment: { resources: state.deployment.resources.map((r) => ({ ...r, urn: r.urn.replace(":prod::", ":staging::") })) } };
  expect(mismatch(preview, other)).toMatch(/^the state is of stack staging \(project app\), the preview of stack prod \(project app\)/);
  expect(mismatch(preview, { deployment: {} })).toMatch(/^the state has no resources, and the preview finds 4 resources in the stack/);
  // A new stack's first preview: an empty state is the right one.
  const first = {
    steps: [
      { op: "create", urn: root.urn },
      { op: "create", urn: urn("web") },
    ],
    changeSummary: { create: 2 },
  };
  expect(mismatch(first, { deployment: {} })).toBeUndefined();
});

test("a resource the state holds under another id (an older CLI writes no modified time) is refused", () => {
  const oldCli = {
    ...preview,
    steps: preview.steps.map((s) => (s.urn === urn("web") ? { ...s, oldState: { urn: urn("web"), type: "compute:index:Instance", id: "41" } } : s)),
  };
  const replaced = {
    deployment: { resources: [root, provider, { urn: urn("web"), type: "compute:index:Instance", id: "42" }, res("db", "t1"), res("cache", "t2")] },
  };
  expect(mismatch(oldCli, replaced)).toMatch(/^web in the state is not as the preview found it \(id 42, the preview's 41\)/);
});

test("a failed preview's errors: the engine's, and a language host's printed as the program's output (YAML: info#err)", () => {
  expect(
    previewErrors({
      ...preview,
      diagnostics: [
        { severity: "warning", message: "w" },
        { severity: "error", message: "boom\nmore" },
      ],
    }),
  ).toEqual(["boom more"]);
  expect(previewErrors({ ...preview, diagnostics: [{ severity: "info#err", message: "Error: web has no property typo\n" }] })).toEqual([
    "Error: web has no property typo",
  ]);
});
