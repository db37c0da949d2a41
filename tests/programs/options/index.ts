/**
 * The engine's resource options against this provider (its create-first replacements, its pinned labels,
 * its children), one program in both forms: the dynamic classes (`pulumi-compute`) or the plugin's SDK
 * (`@pulumi-compute/plugin-sdk`), chosen by the stack's `form` config. Config switches each case on or off.
 */
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as dynamic from "pulumi-compute";
import * as plugin from "@pulumi-compute/plugin-sdk";

const config = new pulumi.Config();
const compute = (config.get("form") === "plugin" ? plugin : dynamic) as unknown as typeof dynamic;
const flag = (k: string) => config.getBoolean(k) ?? false;
const region = "us-east";
const sshKey = config.require("publicKey");

// Resource hooks: each writes a line to the file `hookLog` names (registered on every run, so that a
// resource removed from the program still has its delete hooks).
const hookLog = config.get("hookLog");
const hook = (when: string) =>
  new pulumi.ResourceHook(`log-${when}`, (args) => {
    fs.appendFileSync(hookLog!, `${when} ${args.name}\n`);
  });
const hooks = hookLog
  ? { beforeCreate: [hook("before-create")], afterCreate: [hook("after-create")], beforeDelete: [hook("before-delete")], afterDelete: [hook("after-delete")] }
  : undefined;

// replaceOnChanges on a field the provider changes in place, with a pinned label: the engine forces the
// replacement, and the provider's hand-over of the label still works (made first under a temporary label).
const web = new compute.Instance(
  "web",
  { label: "opt-web", region, type: "c1-standard-2", tags: [config.get("webTag") ?? "blue"] },
  { replaceOnChanges: ["tags"] },
);

// An instance and its children, deleted with it (deletedWith): removing it sends no DELETE for them.
if (!flag("dropHost")) {
  const host = new compute.Instance("host", { region, type: "c1-standard-2" }, { hooks });
  const data = new compute.Disk("data", { computeId: host.id, size: 1024 }, { deletedWith: host });
  const boot = new compute.Config("boot", { computeId: host.id, devices: { sda: { diskId: data.id } } }, { deletedWith: host });
  new compute.Interface("eth0", { computeId: host.id, configId: boot.id, purpose: "public" }, { deletedWith: host });
}
// A VPC and its subnet, deleted with it.
if (!flag("dropNet")) {
  const net = new compute.Vpc("net", { region });
  new compute.Subnet("sub", { vpcId: net.id, ipv4: "10.50.0.0/24" }, { deletedWith: net });
}

// A VPC with a pinned label whose region change replaces it, deleted first as the user says.
const pinned = new compute.Vpc("pinned", { label: "opt-pinned", region: config.get("pinnedRegion") ?? region }, { deleteBeforeReplace: true });

// retainOnDelete, protect, ignoreChanges.
if (!flag("dropKept")) new compute.SshKey("kept", { label: "opt-kept", sshKey }, { retainOnDelete: true });
new compute.SshKey("guarded", { label: "opt-guarded", sshKey }, { protect: flag("protect") });
new compute.SshKey("ignored", { label: config.get("ignoredLabel") ?? "opt-ignored", sshKey }, { ignoreChanges: ["label"] });

// aliases: a rename, then a move under a component.
const parent = flag("parented") ? new pulumi.ComponentResource("options:index:Group", "group") : undefined;
new compute.SshKey(
  config.get("keyName") ?? "named",
  { label: "opt-named", sshKey },
  // Where it was: named "named", or already renamed, at the top of the stack.
  { parent, aliases: [{ name: "named", parent: pulumi.rootStackResource }, { parent: pulumi.rootStackResource }] },
);

// replacementTrigger: a new value replaces the VPC; replaceWith: the key is replaced with it.
const triggered = new compute.Vpc("triggered", { region }, { replacementTrigger: config.get("trigger") ?? "1" });
new compute.SshKey("follower", { sshKey }, { replaceWith: [triggered] });

// A read function after a resource (invoke options): the token is made first, then the tokens are listed.
const agent = new compute.Token("agent", { scopes: "computes:read_only" });
const listed = compute.getTokensOutput({ filters: [{ name: "label", values: [agent.label] }] }, { dependsOn: agent });

export const webId = web.id;
export const pinnedId = pinned.id;
export const triggeredId = triggered.id;
export const agentListed = listed.apply((r) => r.tokens.map((t) => t.label));
