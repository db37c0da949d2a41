import { z } from "zod";
import { checkInputs, diffInputs } from "../../provider/model/check";
import { declare, fromApi, inputsOf, readResult, toApiBody } from "../../provider/model/mapping";
import { UNKNOWN, type ResourceSpec } from "../../provider/model/table";
import { sshKeySpec } from "../../provider/resources/sshKey";
import { ed25519Key } from "../helpers/emulator";

const key = ed25519Key(1);

describe("SshKey check (preview-time validation)", () => {
  test("valid inputs pass and the key is trimmed", () => {
    const r = checkInputs(sshKeySpec, { label: "a", sshKey: `  ${key}\n` });
    expect(r.failures).toEqual([]);
    expect(r.inputs.sshKey).toBe(key);
  });

  test("a label over 64 characters names the field and the rule", () => {
    const r = checkInputs(sshKeySpec, { label: "x".repeat(65), sshKey: key });
    expect(r.failures).toEqual([{ property: "label", reason: "label: must be at most 64 characters (got 65)" }]);
  });

  test("a missing key is required", () => {
    expect(checkInputs(sshKeySpec, { label: "a" }).failures).toEqual([{ property: "sshKey", reason: "sshKey is required" }]);
  });

  test.each([
    ["notakey", /OpenSSH public key/],
    ["ssh-foo AAAA", /not supported/],
    ["ssh-ed25519 ***", /base64/],
    [key.replace("ssh-ed25519", "ssh-rsa"), /does not hold a ssh-rsa key/],
  ])("a malformed key %j is refused", (value, reason) => {
    const r = checkInputs(sshKeySpec, { sshKey: value });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0].property).toBe("sshKey");
    expect(r.failures[0].reason).toMatch(reason);
  });

  test("a wrong type names the field", () => {
    const r = checkInputs(sshKeySpec, { label: 5, sshKey: key });
    expect(r.failures[0].property).toBe("label");
    expect(r.failures[0].reason).toMatch(/^label: /);
  });

  test("unknown values (preview) are not validated", () => {
    expect(checkInputs(sshKeySpec, { label: UNKNOWN, sshKey: UNKNOWN }).failures).toEqual([]);
  });

  test("output-only fields given as inputs are dropped", () => {
    expect(checkInputs(sshKeySpec, { sshKey: key, created: "x" }).inputs).not.toHaveProperty("created");
  });
});

describe("SshKey diff", () => {
  const olds = { label: "a", sshKey: key, created: "2026-01-01T00:00:00" };

  test("no change", () => {
    expect(diffInputs(sshKeySpec, olds, { label: "a", sshKey: key })).toMatchObject({ changes: false, replaces: [] });
  });

  test("a new label is an in-place update", () => {
    expect(diffInputs(sshKeySpec, olds, { label: "b", sshKey: key })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false, changed: ["label"] });
  });

  test("a new key replaces", () => {
    expect(diffInputs(sshKeySpec, olds, { label: "a", sshKey: ed25519Key(2) })).toMatchObject({ changes: true, replaces: ["sshKey"] });
  });

  test("a label left out is the server's default, not a change", () => {
    expect(diffInputs(sshKeySpec, { ...olds, label: "" }, { sshKey: key }).changes).toBe(false);
  });

  test("an unknown value is a change (and replaces for force-new fields)", () => {
    expect(diffInputs(sshKeySpec, olds, { label: "a", sshKey: UNKNOWN })).toMatchObject({ changes: true, replaces: ["sshKey"] });
  });
});

describe("a resource with unique labels", () => {
  const spec: ResourceSpec<{ id: number }> = {
    type: "Thing",
    noun: "thing",
    idFormat: "",
    uniqueLabel: true,
    description: "",
    fields: [
      { name: "label", kind: "input", required: true, schema: z.string(), description: "" },
      { name: "region", kind: "input", forceNew: true, schema: z.string(), description: "" },
      { name: "rootPass", kind: "input", secret: true, writeOnly: true, schema: z.string(), description: "" },
      { name: "status", kind: "output", description: "" },
    ],
    collectionPath: () => "/things",
    itemPath: (id) => `/things/${id}`,
  };

  test("a replacement that keeps the label deletes first", () => {
    expect(diffInputs(spec, { label: "a", region: "x" }, { label: "a", region: "y" })).toMatchObject({ replaces: ["region"], deleteBeforeReplace: true });
  });

  test("a replacement with a new label creates first", () => {
    expect(diffInputs(spec, { label: "a", region: "x" }, { label: "b", region: "y" })).toMatchObject({ replaces: ["region"], deleteBeforeReplace: false });
  });

  test("a removed optional input is a change", () => {
    expect(diffInputs(spec, { label: "a", region: "x" }, { label: "a" })).toMatchObject({ changes: true, changed: ["region"] });
  });

  test("a parent id that goes in the path is never a body field", () => {
    const child: ResourceSpec<{ id: number }> = {
      ...spec,
      fields: [{ name: "vpcId", kind: "input", inPath: true, schema: z.number(), description: "" }, ...spec.fields],
    };
    expect(toApiBody(child, { vpcId: 4, label: "a" })).toEqual({ label: "a" });
  });

  test("bodies use API names and only the fields asked for", () => {
    expect(toApiBody(spec, { label: "a", region: "x", rootPass: "s3cret!!" })).toEqual({ label: "a", region: "x", root_pass: "s3cret!!" });
    expect(toApiBody(spec, { label: "a", region: "x" }, ["label"])).toEqual({ label: "a" });
  });

  test("read reports as inputs only the inputs the user declared", () => {
    const outs = declare(spec, { label: "a", region: "x", status: "running" }, { label: "a" });
    expect(outs.__declared).toEqual(["label"]);
    const r = readResult(spec, "1", { label: "changed", region: "x", status: "running" }, outs);
    expect(r.inputs).toEqual({ label: "changed" });
    expect(r.props.__declared).toEqual(["label"]);
  });

  test("an undefined API value is left out of the outputs (Pulumi cannot carry undefined)", () => {
    expect(fromApi(spec, { id: 1, label: "a", status: undefined }, {})).toEqual({ label: "a" });
  });

  test("outputs come from the API; write-only inputs are kept from the inputs", () => {
    const outs = fromApi(spec, { id: 1, label: "a", region: "x", status: "running", root_pass: "never-returned" }, { rootPass: "mine" });
    expect(outs).toEqual({ label: "a", region: "x", rootPass: "mine", status: "running" });
    expect(inputsOf(spec, outs)).toEqual({ label: "a", region: "x", rootPass: "mine" });
  });
});
