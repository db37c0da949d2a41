/**
 * Naming policies (`pulumi:autonaming` in the stack's config, set with `pulumi config set --path` as a user
 * sets it) through the plain CLI: for the whole program, for this provider, and for one type; modes
 * verbatim and disabled, patterns with `${stack}`, `${name}` and random parts; a name the API would refuse
 * fails the preview naming the rule and the setting. On the plugin from YAML and TypeScript (the Go program
 * of plugin-go.e2e runs with a pattern too), and in the dynamic classes, which read the setting themselves.
 */
import type { Emulator } from "../../emulator/server";
import { ed25519Key, emulator, list } from "../helpers/emulator";
import { installPlugin, type InstalledPlugin } from "../helpers/plugin";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
let plugin: InstalledPlugin;
const stacks: TestStack[] = [];

beforeAll(async () => {
  emu = await emulator();
  plugin = await installPlugin();
});
afterAll(async () => {
  for (const s of stacks) s.cleanup();
  plugin?.cleanup();
  await emu?.close();
});

const VPC = 'pulumi:autonaming.providers.compute.resources["compute:index:Vpc"]';

/** The label `pulumi preview` plans for a resource of the program, or the preview's failure. */
async function planned(stack: TestStack, name: string): Promise<string> {
  const p = await stack.run("preview");
  // A failed preview: its diagnostics, as the CLI prints them.
  if (p.code !== 0) return ((p.json?.diagnostics ?? []) as Array<{ message: string }>).map((d) => d.message).join("\n") || p.output;
  return (p.json.steps as Array<{ urn: string; newState?: { inputs?: { label?: string } } }>).find((s) => s.urn.endsWith(`::${name}`))!.newState!.inputs!
    .label!;
}

/** YAML on the plugin: program-wide, provider-wide and one type's policies; disabled; a name the API refuses. */
async function yamlOnThePlugin() {
  const stack = new TestStack("tests/programs/yaml", `naming-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, publicKey: ed25519Key(64) },
    secrets: { "compute:token": emu.token },
    env: plugin.env,
  });
  stacks.push(stack);
  await stack.run("outputs"); // the stack and its config
  const set = (key: string, value: string | undefined) => stack.project.configurePath(key, value);

  await set("pulumi:autonaming.pattern", "${stack}-${name}-${hex(4)}");
  expect(await planned(stack, "net")).toMatch(new RegExp(`^${stack.stack}-net-[0-9a-f]{4}$`));
  // A label the program pins is the program's.
  expect(await planned(stack, "backend")).toBe("backend");

  await set("pulumi:autonaming.providers.compute.mode", "verbatim");
  expect(await planned(stack, "net")).toBe("net");

  await set(`${VPC}.pattern`, "vpc-${name}-${alphanum(3)}");
  expect(await planned(stack, "net")).toMatch(/^vpc-net-[a-z0-9]{3}$/);

  await set(`${VPC}.pattern`, undefined);
  await set(`${VPC}.mode`, "disabled");
  expect(await planned(stack, "net")).toMatch(/label: required: auto-naming is disabled by the pulumi:autonaming setting; give the label/);

  // VPC labels take letters, digits and hyphens: the engine's name is refused before any request.
  await set(`${VPC}.mode`, undefined);
  await set(`${VPC}.pattern`, "${name}_${hex(2)}");
  expect(await planned(stack, "net")).toMatch(
    /label: must include only ASCII letters, numbers, and dashes \(the name "net_[0-9a-f]{2}" comes from the pulumi:autonaming setting/,
  );
}

/** TypeScript, in either form: the same setting names the VPC, or makes its label required. */
async function typeScript(form: "plugin" | "dynamic") {
  const stack = new TestStack("tests/programs/plans", `naming-${form}-${process.pid}`, {
    config: { "compute:apiUrl": emu.url, form, publicKey: ed25519Key(65) },
    secrets: { "compute:token": emu.token, rootPass: "Naming-R00t-Pass!" },
    env: form === "plugin" ? plugin.env : {},
  });
  stacks.push(stack);
  await stack.run("outputs");
  const set = (key: string, value: string | undefined) => stack.project.configurePath(key, value);
  await set("pulumi:autonaming.pattern", "${project}-${name}-${num(3)}");
  expect(await planned(stack, "net")).toMatch(/^plans-program-net-[0-9]{3}$/);
  await set(`${VPC}.mode`, "verbatim");
  expect(await planned(stack, "net")).toBe("net");
  await set(`${VPC}.mode`, "disabled");
  expect(await planned(stack, "net")).toMatch(/label: required: auto-naming is disabled by .*pulumi:autonaming/);
}

test("naming policies from YAML and TypeScript on the plugin, and in the dynamic classes (three stacks at once)", async () => {
  await Promise.all([yamlOnThePlugin(), typeScript("plugin"), typeScript("dynamic")]);
  // Nothing was made by any of these previews.
  expect(await list(emu, "/vpcs")).toEqual([]);
});
