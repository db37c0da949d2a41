import { z } from "zod";
import type { ApiClient } from "../client";
import { act, checkInputs, createOnce, declare, describeFailure, diffInputs, fromApi, keepResourceError, readResult, rule, toApiBody, type DynamicProviderImpl, type ResourceSpec } from "../resource";
import { ID_PATTERN, lengthError, rootPassError, sshPublicKeyError } from "../rules";
import { client as settingsClient } from "../settings";
import { timeoutOf, waitFor } from "../wait";
import { generatedPassword } from "./instance";
import { power } from "./power";

export const idInput = z.union([z.number().int().positive(), z.string().regex(ID_PATTERN, "must be an id (digits)").transform(Number)]);

export interface DiskApi {
  id: number;
  label: string;
  size: number;
  filesystem: string;
  status: "ready" | "not ready" | "deleting";
  created: string;
  updated: string;
}

type Props = Record<string, unknown>;

export const diskSpec: ResourceSpec<DiskApi> = {
  type: "Disk",
  noun: "disk",
  description: "A disk of an instance (`/compute/instances/{computeId}/disks`): empty, or deployed from an image. Waits until the disk is ready.",
  idFormat: "The API's integer disk id, as a string: use `disk.id` in a config's `devices` (`{ sda: { diskId: disk.id } }`).",
  example: `const data = new compute.Disk("data", {
    computeId: web.id,
    label: "data",
    size: 10240,
    filesystem: "ext4",
});`,
  fields: [
    { name: "computeId", kind: "input", required: true, forceNew: true, inPath: true, schema: idInput, description: "The instance's id (`instance.id`). Changing it replaces the disk." },
    { name: "size", kind: "input", required: true, schema: z.number().int().min(1, "must be at least 1 MB"), description: "Size in MB, within the instance type's disk allowance. Changed in place by a disk resize: a running instance is shut down, the disk resized, and the instance booted again." },
    { name: "label", kind: "input", computed: true, schema: rule((v) => lengthError(v, 1, 48)), description: "1..48 characters; required for an empty disk (the image's name otherwise). Changed in place." },
    { name: "filesystem", kind: "input", computed: true, forceNew: true, schema: z.enum(["raw", "swap", "ext3", "ext4", "initrd"]), description: "`raw`, `swap`, `ext3`, `ext4` (default) or `initrd`. Changing it replaces the disk." },
    { name: "image", kind: "input", forceNew: true, schema: z.string().min(1), description: "Image to deploy on the disk. Changing it replaces the disk." },
    { name: "rootPass", kind: "input", secret: true, writeOnly: true, computed: true, forceNew: true, schema: rule(rootPassError), description: "Root password for an image deploy (generated and kept as a secret when left out). Changing it replaces the disk." },
    { name: "authorizedKeys", kind: "input", forceNew: true, writeOnly: true, schema: z.array(rule((v) => sshPublicKeyError(v))), description: "Public SSH keys for root. Create-only." },
    { name: "authorizedUsers", kind: "input", forceNew: true, writeOnly: true, schema: z.array(z.string().min(1)), description: "Users whose profile keys are added. Create-only." },
    { name: "scriptId", kind: "input", forceNew: true, writeOnly: true, schema: z.number().int(), description: "Deployment script (needs a compatible image). Create-only." },
    { name: "scriptData", kind: "input", forceNew: true, writeOnly: true, secret: true, raw: true, schema: z.record(z.string(), z.unknown()), description: "Inputs of the deployment script. Secret. Create-only." },
    { name: "timeouts", kind: "input", control: true, schema: z.object({ create: z.string(), update: z.string(), delete: z.string() }).partial().strict(), description: "How long to wait: `create` (default 10m), `update` (default 30m), `delete` (default 10m)." },
    { name: "status", kind: "output", description: "`ready`, `not ready` or `deleting`." },
    { name: "created", kind: "output", description: "When the disk was created." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  collectionPath: (inputs) => `/compute/instances/${String(inputs.computeId)}/disks`,
  itemPath: (id, props) => `/compute/instances/${String(props.computeId)}/disks/${encodeURIComponent(id)}`,
  async findExisting(client, body, inputs, since) {
    const all = await client.list<DiskApi>(`/compute/instances/${String(inputs.computeId)}/disks`);
    return all.find((d) => d.size === body.size && (body.label === undefined || d.label === body.label) && Date.parse(`${d.created}Z`) >= since - 60_000);
  },
};

const DEFAULTS = { create: "10m", update: "30m", delete: "10m" };
const instancePath = (props: Props) => `/compute/instances/${String(props.computeId)}`;

async function waitReady(c: ApiClient, id: string, props: Props, timeoutMs: number, what = "to be ready", want: (d: DiskApi) => boolean = () => true): Promise<DiskApi> {
  return (await waitFor<DiskApi>({
    client: c,
    path: diskSpec.itemPath(id, props),
    what: `disk ${id} ${what}`,
    done: (d) => d.status === "ready" && want(d),
    timeoutMs,
    describe: (d) => `status ${d.status}`,
  }))!;
}


export const diskProvider: DynamicProviderImpl = {
  async check(_olds, news) {
    const r = checkInputs(diskSpec, news);
    if (news.image === undefined && news.label === undefined) r.failures.push({ property: "label", reason: "label: an empty disk (no image) needs a label" });
    if (news.scriptId !== undefined && news.image === undefined) r.failures.push({ property: "scriptId", reason: "scriptId: a deployment script needs an image" });
    return r;
  },
  async diff(_id, olds, news) {
    const d = diffInputs(diskSpec, olds, news);
    return { changes: d.changes, replaces: d.replaces, deleteBeforeReplace: false };
  },
  async create(inputs) {
    const ins: Props = { ...inputs };
    let id: string | undefined;
    let last: DiskApi | undefined;
    try {
      const c = settingsClient();
      if (ins.image !== undefined && ins.rootPass === undefined) ins.rootPass = generatedPassword();
      last = await createOnce(c, diskSpec, toApiBody(diskSpec, ins), ins);
      id = String(last.id);
      last = await waitReady(c, id, ins, timeoutOf(ins, "create", DEFAULTS));
      return { id, outs: declare(diskSpec, fromApi(diskSpec, last as never, ins), inputs) };
    } catch (err) {
      const e = describeFailure(diskSpec, "create", id, err);
      if (id && last) throw keepResourceError(`${e.message}. The disk ${id} exists and is kept in the stack.`, id, fromApi(diskSpec, last as never, ins), inputs);
      throw e;
    }
  },
  async read(id, props) {
    try {
      const api = await settingsClient().get<DiskApi>(diskSpec.itemPath(id, props), true);
      if (!api) return {};
      return readResult(diskSpec, id, fromApi(diskSpec, api as never, props), props);
    } catch (err) {
      throw describeFailure(diskSpec, "read", id, err);
    }
  },
  async update(id, olds, news) {
    const ins: Props = { ...news, rootPass: news.rootPass ?? olds.rootPass };
    let last: DiskApi | undefined;
    try {
      const c = settingsClient();
      const { changed } = diffInputs(diskSpec, olds, news);
      const timeout = timeoutOf(news, "update", DEFAULTS);
      if (changed.includes("label")) last = (await c.request<DiskApi>("PUT", diskSpec.itemPath(id, olds), { body: { label: news.label } })).body;
      if (changed.includes("size")) {
        // The API resizes a disk only while its instance is shut down: shut down, resize, boot back.
        const wasRunning = (await c.get<{ status: string }>(instancePath(olds)))!.status === "running";
        if (wasRunning) await power(c, String(olds.computeId), "shutdown", { timeoutMs: timeout, why: "to shut down for the disk resize" });
        try {
          await act(c, `${diskSpec.itemPath(id, olds)}/resize`, { size: news.size }, async () => {
            const d = (await c.get<DiskApi>(diskSpec.itemPath(id, olds)))!;
            return d.status === "not ready" || d.size === news.size;
          });
          last = await waitReady(c, id, olds, timeout, `to be resized to ${String(news.size)} MB`, (d) => d.size === news.size);
        } finally {
          // Refused or not, an instance that was running is booted again.
          if (wasRunning) await power(c, String(olds.computeId), "boot", { timeoutMs: timeout, why: "to boot after the disk resize" });
        }
      }
      last ??= (await c.get<DiskApi>(diskSpec.itemPath(id, olds)))!;
      return { outs: declare(diskSpec, fromApi(diskSpec, last as never, ins), news) };
    } catch (err) {
      const e = describeFailure(diskSpec, "update", id, err);
      if (last) throw keepResourceError(e.message, id, fromApi(diskSpec, last as never, ins), news);
      throw e;
    }
  },
  async delete(id, props) {
    try {
      const c = settingsClient();
      await c.request("DELETE", diskSpec.itemPath(id, props), { accept: [404] });
      await waitFor({ client: c, path: diskSpec.itemPath(id, props), what: `disk ${id} to be deleted`, done: () => false, goneIsDone: true, timeoutMs: timeoutOf(props, "delete", DEFAULTS) });
    } catch (err) {
      throw describeFailure(diskSpec, "delete", id, err);
    }
  },
};
