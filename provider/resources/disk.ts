import type { ExampleProps } from "../model/example";
import { z } from "zod";
import { defineResource } from "../definition";
import { generatedPassword } from "../model/passwords";
import { labelBounds, LENGTH_LIMITS } from "../../api/text";
import { pathOf } from "../../api/contract/endpoint";
import { DEFAULT_FILESYSTEM, diskLabel, diskSize, disksApi, filesystem, type Disk } from "../../api/contract/disks";
import { authorizedKeys, rootPass, scriptData } from "../../api/contract/instances";
import { snapshotBeforeChangeOf } from "./instance/declared";
import { say, type StatusWait } from "../lifecycle/steps";
import { actOn, powerCycle, refusedWhileRunning } from "./instance-power";
import { snapshotBeforeChange } from "./instance/presnapshot";
import type { CheckFailure } from "../model/check";
import { tableFor } from "../model/api-table";
import type { Props } from "../model/table";
import { idInput, madeSince } from "../model/rules";
import { resource, ref, emptyHost, bootDisk } from "./example-parents";

/** A disk as the API answers it (api/contract/disks.ts). */
export type DiskApi = Disk;

/** A disk's path parameters, from its id and its inputs or state. */
const diskOf = (id: string, props: Props) => ({ computeId: String(props.computeId), diskId: id });

const ready = (what: string, want: (d: Disk) => boolean = () => true): StatusWait<Disk> & { readyStatus: string } => ({
  what,
  readyStatus: "ready",
  done: (d) => d.status === "ready" && want(d),
});

export const diskSpec = tableFor({ create: disksApi.create, get: disksApi.get, update: disksApi.update, list: disksApi.list })({
  type: "Disk",
  noun: "disk",
  holdsData: true,
  autoName: { field: "label", ...labelBounds("diskLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  generated: { field: "rootPass", value: generatedPassword, when: (inputs) => inputs.image !== undefined },
  description:
    "A disk of an instance (`/compute/instances/{computeId}/disks`): empty, or deployed from an image. Waits until the disk is ready. A replacement makes the new disk before the old one is deleted (so the instance's disk allowance must have room for both).",
  idFormat: "The API's integer disk id, as a string: use `disk.id` in a config's `devices` (`{ sda: { diskId: disk.id } }`).",
  deleteNote: "a disk of the profile a running instance booted with is deleted inside a shutdown and boot of the instance.",
  fields: [
    {
      name: "computeId",
      kind: "input",
      required: true,
      forceNew: true,
      inPath: true,
      schema: idInput,
      description: "The instance's id (`instance.id`). Changing it replaces the disk.",
    },
    {
      name: "size",
      kind: "input",
      required: true,
      // A whole number (an integer in the schema and the SDKs), then the contract's rule for a size.
      schema: z.number().int().pipe(diskSize),
      description:
        "Size in MB, within the instance type's disk allowance. Changed in place by a disk resize: a running instance is shut down, the disk resized, and the instance booted again.",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: diskLabel,
      description: "1..48 characters; auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    {
      name: "filesystem",
      kind: "input",
      computed: true,
      forceNew: true,
      schema: filesystem,
      description: "`raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk.",
    },
    { name: "image", kind: "input", forceNew: true, schema: z.string().min(1), description: "Image to deploy on the disk. Changing it replaces the disk." },
    {
      name: "rootPass",
      kind: "input",
      secret: true,
      writeOnly: true,
      computed: true,
      // A deploy given none gets a strong one (kept as a secret output).
      schema: rootPass,
      description:
        "Root password for an image deploy (generated and kept as a secret when left out). Changed in place by the per-disk password reset, inside a shutdown and boot of a running instance: the disk is never erased for it.",
    },
    {
      name: "authorizedKeys",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: authorizedKeys,
      description: "Public SSH keys for root. Create-only.",
    },
    {
      name: "authorizedUsers",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.array(z.string().min(1)),
      description: "Users whose profile keys are added. Create-only.",
    },
    {
      name: "scriptId",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      schema: z.number().int(),
      description: "Deployment script (needs a compatible image). Create-only.",
    },
    {
      name: "scriptData",
      kind: "input",
      forceNew: true,
      writeOnly: true,
      secret: true,
      raw: true,
      schema: scriptData,
      description: `Inputs of the deployment script (JSON, at most ${LENGTH_LIMITS.scriptData[1]} characters). Secret. Create-only.`,
    },
    { name: "status", kind: "output", description: "`ready`, `not ready` or `deleting`." },
    { name: "created", kind: "output", description: "When the disk was created." },
    { name: "updated", kind: "output", changesWith: ["label", "size"], description: "When it last changed." },
  ],
  timeouts: {
    defaults: { create: "10m", update: "30m", delete: "10m" },
    note: "An update covers the instance's shutdown and boot around a resize or a password reset.",
  },
  waitCreated: ready("to be ready"),
  waitGone: true,
  collectionPath: (inputs) => pathOf(disksApi.list, { computeId: String(inputs.computeId) }),
  itemPath: (id, props) => pathOf(disksApi.get, diskOf(id, props)),
  // A lost create answer: the disk with our label (every create carries one), size and filesystem, made no
  // earlier than this create began (less a minute for clock skew). A sibling is never taken for it.
  async findExisting(client, body, inputs, since) {
    const all = await client.all(disksApi.list, { params: { computeId: String(inputs.computeId) } });
    const fs = body.filesystem ?? (body.image == null ? DEFAULT_FILESYSTEM : undefined);
    const found = all.filter((d) => d.label === body.label && d.size === body.size && (fs === undefined || d.filesystem === fs) && madeSince(d.created, since));
    if (found.length > 1)
      throw new Error(
        `the answer to the disk create was lost, and disks ${found.map((d) => d.id).join(", ")} of instance ${String(inputs.computeId)} all match it (label "${String(body.label)}"): keep one, delete the others, then run pulumi up again`,
      );
    return found[0];
  },
});

/** A disk: its table, plus the password it is deployed with, its wait for `ready`, and in-place changes. */
export const disk = defineResource({
  spec: diskSpec,
  example: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, label: "data", filesystem: "ext4" });
    return {
      title: "A boot disk from an image and a data disk on an instance created empty",
      resources: [host, boot, data],
      outputs: { bootDiskId: ref(boot), dataDiskStatus: ref(data, "status") },
    };
  },
  lookup: { name: "getDisks", scope: "`computes:read_only`", listKey: "disks", description: "The disks of an instance.", parents: { computeId: "instance" } },
  sdk: { file: "disk" },
  hooks: {
    validate(news) {
      const failures: CheckFailure[] = [];
      if (news.scriptId !== undefined && news.image === undefined)
        failures.push({ property: "scriptId", reason: "scriptId: a deployment script needs an image" });
      if (news.rootPass !== undefined && news.image === undefined)
        failures.push({ property: "rootPass", reason: "rootPass: only a disk deployed from an image has a root password" });
      return failures;
    },
    async update(ctx, olds, news, changed) {
      const { client: c, id, timeoutMs } = ctx;
      const disk = diskOf(id, olds);
      // What a failure keeps is what the disk has: the old password unless the reset went through.
      ctx.keep.rootPass = olds.rootPass;
      if (changed.includes("label")) ctx.latest = await c.call(disksApi.update, { params: disk, body: { label: news.label } });
      const resize = changed.includes("size");
      const password = changed.includes("rootPass") ? news.rootPass : undefined;
      if (resize && snapshotBeforeChangeOf(ctx.program, String(olds.computeId))) {
        await snapshotBeforeChange(c, String(olds.computeId), `the resize of disk ${id}`, timeoutMs);
      }
      if (resize || password !== undefined) {
        // The API resizes a disk and resets its password only while its instance is shut down.
        await powerCycle(c, String(olds.computeId), { timeoutMs, why: `the disk ${resize ? "resize" : "password reset"}` }, async () => {
          if (resize) {
            // (`size` is a required input: always given.)
            await actOn(c, disksApi.resize, disk, { size: Number(news.size) }, async () => {
              const d = await c.call(disksApi.get, { params: disk });
              return d.status === "not ready" || d.size === news.size;
            });
            ctx.latest = await ctx.wait(ready(`to be resized to ${String(news.size)} MB`, (d) => d.size === news.size));
          }
          // The per-disk password reset (its field is `password`, as the real API's recorded answers show): setting
          // the same password twice is harmless.
          if (password !== undefined) {
            await actOn(c, disksApi.password, disk, { password });
            ctx.keep.rootPass = password;
          }
        });
      }
      return ctx.latest ?? (await c.call(disksApi.get, { params: disk }));
    },
    // The API keeps a disk of the profile a running instance booted with: shut down for the delete, then booted.
    async deleteSteps({ client: c, id, props, timeoutMs, program }, remove) {
      // A disk removed from a program whose Instance asks for snapshots before risky changes (not in a destroy:
      // the engine diffs no instance then).
      if (snapshotBeforeChangeOf(program, String(props.computeId)))
        await snapshotBeforeChange(c, String(props.computeId), `the delete of disk ${id}`, timeoutMs);
      try {
        return await remove();
      } catch (err) {
        const computeId = String(props.computeId);
        if (!(await refusedWhileRunning(c, computeId, err))) throw err;
        say(`disk ${id} is in the profile instance ${computeId} runs with: the instance is shut down to delete it, then booted again`);
        return powerCycle(c, computeId, { timeoutMs, why: `the delete of disk ${id}` }, remove);
      }
    },
  },
});
export const diskProvider = disk.provider;

// The inputs its examples may give (Disk): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Disk: ExampleProps<typeof diskSpec.fields>;
  }
}
