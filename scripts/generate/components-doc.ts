import type { ComponentDefinition } from "../../provider/components";
import { DEFAULT_ROOT_DISK_SIZE } from "../../provider/components/server-in-vpc";
import type { Field } from "../../provider/model/table";
import { EXAMPLE_LANGUAGES, exampleCode } from "./example-code";
import { neutralType } from "./docs-languages";
import type { PackageSchema, TypeSpec } from "./sdk-code";

/**
 * docs/components.md: what each component (provider/components/) makes, its inputs and outputs (from its rows and
 * schema.json's types), its example in TypeScript, Python, Go and YAML (the example printers' output, the program
 * tests/e2e/components.e2e.test.ts runs in each language), and the text of a real preview of that program, kept
 * between the markers from the page as it is (the e2e test compares it with the preview it runs).
 */

export const PREVIEW_START = "<!-- preview: the text of `pulumi preview` of the example, held by tests/e2e/components.e2e.test.ts -->";
export const PREVIEW_END = "<!-- end of preview -->";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const typeOf = (t: TypeSpec | undefined) => (t ? neutralType(t) : "any");

function componentSection(c: ComponentDefinition, schema: PackageSchema): string[] {
  const entry = schema.resources[`compute:index:${c.type}`];
  const row = (f: Field, t: TypeSpec | undefined, required: boolean) =>
    `| \`${f.name}\`${f.secret ? " (secret)" : ""} | ${cell(typeOf(t))} | ${required ? "yes" : "no"} | ${cell(f.description)} |`;
  return [
    `## ${c.type}`,
    "",
    `\`compute:index:${c.type}\`. ${c.description}`,
    "",
    "### Inputs",
    "",
    "| Input | Type | Required | Description |",
    "|---|---|---|---|",
    ...c.inputs.map((f) => row(f, entry.inputProperties[f.name], f.required === true)),
    "",
    "### Outputs",
    "",
    "| Output | Type | Always set | Description |",
    "|---|---|---|---|",
    ...c.outputs.map((f) => row(f, entry.properties[f.name], f.required === true)),
    "",
  ];
}

/** What holds for the components beyond their inputs: resource options, changes, imports, what a preview cannot know. */
const BEHAVIOUR = [
  "## Resource options",
  "",
  "- `protect`, `provider`/`providers` and `aliases` reach the children: they are registered under the component, protected",
  "  when it is, with the program's `compute` provider (else the default one), and an alias of the component moves its",
  "  children with it (their URNs name their parent).",
  "- `dependsOn` delays the children: the component waits for what it depends on before it registers them.",
  "- `ignoreChanges` and `customTimeouts` do not reach the children: they name the component's own inputs, which the",
  "  engine does not diff (the children are diffed on theirs). Set them on the resources themselves where needed.",
  "- `pulumi import` cannot adopt a component (the plugin says so, naming it): import its parts instead, each by its own",
  "  type and id (`compute:index:Instance`, `Disk`, `Config`, `MysqlDatabase`, `PostgresDatabase`).",
  "",
  "## Changes",
  "",
  "- ServerInVpc makes, changes and deletes its disks one at a time (root, swap, then the extra disks in order), since",
  "  the API resizes one disk of an instance at a time. The root disk's size does not follow the type or the other",
  `  disks (\`rootDiskSize\`, default ${DEFAULT_ROOT_DISK_SIZE} MB), so a change of one disk never resizes the root; the disks must fit the`,
  "  type's disk allowance (refused at preview), and a new root disk (`image` or `authorizedKeys` changed) is made before",
  "  the old one is deleted, so the type needs room for both.",
  "- Removing an extra disk other than the last, or the swap disk (`swapSize: 0`), moves the disks after it to the device",
  "  slots before (`sdc`, `sdd`, ...): the boot profile changes with it, and the server sees those disks under other",
  "  device names.",
  "- A change of the boot profile (its disks, its interfaces: `subnetId`, `publicInterface`, `vpcIpv4`, `nat11`, a new",
  "  root disk) takes effect at once: a running server reboots into it (the profile's `rebootOnChange`). A resize of a",
  "  disk shuts the server down and boots it again, one disk at a time.",
  "- Changing `subnetId` or `publicInterface` re-puts the boot profile's interfaces and may give the vpc interface a new",
  "  address (unless `vpcIpv4` fixes it); a DatabaseForServers given `privateIpv4` follows it: its allow list is updated",
  "  in place, and the server has that address once it has rebooted.",
  "- Not refused at preview, refused by the API at the up (before the part it concerns is changed): an image larger than",
  "  the root disk, a `vpcIpv4` outside the subnet or reserved, a new root disk without room beside the old one.",
  "",
  "## What a preview cannot know",
  "",
  "- Inputs that decide which children exist, or their type, must be known at preview (not an output of a resource yet to",
  "  be made): ServerInVpc's `swapSize` and `extraDisks` (the list and each label; a size may be unknown), and",
  "  DatabaseForServers' `engine`. The preview refuses them unknown (`must be known at preview`), since it would plan",
  "  other children than the up makes.",
  "- `privateIpv4` is unknown at preview while the boot profile's interfaces change (`subnetId`, `publicInterface`,",
  "  `nat11`) and `vpcIpv4` is left out: the interfaces are re-put, and the real API's recorded conversations do not show",
  "  whether an address it chose is kept when they are. A DatabaseForServers given it then plans its allow list unknown",
  "  (`~ allowList: [unknown]`), and the up changes nothing when the address is the same. Give `vpcIpv4` to have it known.",
  "",
];

/** The page, its preview block taken from `current` (the page as it is). */
export function componentsDoc(components: readonly ComponentDefinition[], schema: PackageSchema, current: string): string {
  const [start, end] = [current.indexOf(PREVIEW_START), current.indexOf(PREVIEW_END)];
  const preview =
    start >= 0 && end > start ? current.slice(start + PREVIEW_START.length, end).trim() : "```\n(run tests/e2e/components.e2e.test.ts with UPDATE_DOCS=1)\n```";
  const ex = components[components.length - 1].example();
  const code = exampleCode(ex);
  return [
    "# Components",
    "",
    "<!-- Generated by `npm run gen:schema` from provider/components/ (the preview from a real run): do not edit by hand. -->",
    "",
    "Two components built from the provider's resources, served by the `pulumi-resource-compute` plugin (its `Construct`):",
    "the SDKs generated from schema.json (TypeScript `@pulumi-compute/plugin-sdk`, Python `pulumi_compute`, Go) and YAML",
    "offer them like any resource (the dynamic classes of `pulumi-compute` do not). Their inputs are checked at preview as",
    "a resource's are, naming the component's input and the rule; their parts are resources of their own under the",
    "component in the stack (`pulumi stack --show-urns`), each diffed by the engine: a change of one input updates or",
    "replaces only the part that takes it.",
    "",
    ...components.flatMap((c) => componentSection(c, schema)),
    ...BEHAVIOUR,
    "## Example",
    "",
    `${ex.title}, and the server in a VPC subnet it is open to:`,
    "",
    ...EXAMPLE_LANGUAGES.flatMap((lang) => ["```" + lang, code[lang], "```", ""]),
    "### Its preview",
    "",
    "`pulumi preview` of this program (TypeScript; the other languages plan the same steps) on a new stack:",
    "",
    PREVIEW_START,
    preview,
    PREVIEW_END,
    "",
  ].join("\n");
}
