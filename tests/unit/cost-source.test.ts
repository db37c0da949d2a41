/**
 * The checks that keep the cost report from misleading (provider/cost/source.ts): a preview that leaves resources
 * out is completed only by the state it was made from. Each case is one a user met: an export taken before the
 * last `up`, another stack's export, an empty one, one taken after a later `up`; and the right one accepted.
 */
import { listsEverything, mismatch, previewErrors, previewStack, unlisted } from "../../provider/cost/source";

const urn = (name: string, type = "compute:index:Instance", stack = "prod") => `urn:pulumi:${stack}::app::${type}::${name}`;
const root = { urn: urn("app-prod", "pulumi:pulumi:Stack"), type: "pulumi:pulumi:Stack", modified: "t0" };
const provider = { urn: urn("default_0_1_0", "pulumi:providers:compute"), type: "pulumi:providers:compute", modified: "t0" };
const res = (name: string, modified: string, id = name) => ({ urn: urn(name), type: "compute:index:Instance", id, modified });

// The stack now: web (changed by the preview), db and cache (left alone).
const state = { deployment: { resources: [root, provider, res("web", "t1"), res("db", "t1"), res("cache", "t2")] } };
// A preview without --show-sames: the root stack and web listed; 3 sames counted (root, db, cache).
const preview = {
  steps: [
    { op: "same", urn: root.urn, oldState: root },
    { op: "update", urn: urn("web"), oldState: res("web", "t1") },
  ],
  changeSummary: { same: 3, update: 1 },
};

test("the state the preview was made from matches; a preview with --show-sames needs none", () => {
  expect(mismatch(preview, state)).toBeUndefined();
  expect([unlisted(preview), listsEverything(preview)]).toEqual([2, false]);
  const sames = { ...preview, steps: [...preview.steps, { op: "same", urn: urn("db") }, { op: "same", urn: urn("cache") }] };
  expect([unlisted(sames), listsEverything(sames)]).toEqual([0, true]);
  expect(previewStack(preview)).toEqual({ stack: "prod", project: "app" });
});

test("an export taken before the last up (cache not made yet, web as it was) is refused, saying so", () => {
  const before = { deployment: { resources: [root, provider, res("web", "t0"), res("db", "t1")] } };
  expect(mismatch(preview, before)).toMatch(
    /^web in the state is not as the preview found it \(modified t0, the preview's t1\): the stack changed between the export and the preview/,
  );
  // web as the preview found it, but cache missing: the count of what is left alone tells.
  const noCache = { deployment: { resources: [root, provider, res("web", "t1"), res("db", "t1")] } };
  expect(mismatch(preview, noCache)).toMatch(/^the state has 1 resource the preview does not list, and the preview leaves 2 alone/);
});

test("an export taken after a later up (a resource more) is refused", () => {
  const after = { deployment: { resources: [...state.deployment.resources, res("extra", "t3")] } };
  expect(mismatch(preview, after)).toMatch(/^the state has 3 resources the preview does not list, and the preview leaves 2 alone/);
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

test("a resource the preview changes but the state does not hold, or holds under another id, is refused", () => {
  const noWeb = { deployment: { resources: [root, provider, res("db", "t1"), res("cache", "t2")] } };
  expect(mismatch(preview, noWeb)).toMatch(/^the state has no web, which the preview finds in the stack \(update\)/);
  const oldCli = {
    ...preview,
    steps: [preview.steps[0], { op: "update", urn: urn("web"), oldState: { urn: urn("web"), type: "compute:index:Instance", id: "41" } }],
  };
  const replaced = {
    deployment: { resources: [root, provider, { urn: urn("web"), type: "compute:index:Instance", id: "42" }, res("db", "t1"), res("cache", "t2")] },
  };
  expect(mismatch(oldCli, replaced)).toMatch(/^web in the state is not as the preview found it \(id 42, the preview's 41\)/);
});

test("a failed preview's errors", () => {
  expect(
    previewErrors({
      ...preview,
      diagnostics: [
        { severity: "warning", message: "w" },
        { severity: "error", message: "boom\nmore" },
      ],
    }),
  ).toEqual(["boom"]);
});
