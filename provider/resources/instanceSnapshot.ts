import type { ExampleProps } from "../model/example";
import { RESOURCE_NAME } from "../model/marks";
import { z } from "zod";
import type { ApiClient } from "../transport/client";
import type { CheckFailure } from "../model/check";
import { plannedBackupsOf, claimSnapshotSlot } from "./instance/declared";
import type { ProgramContext } from "../program";
import { defineResource } from "../definition";
import { isExisting } from "../model/naming";
import { labelBounds } from "../../api/text";
import { pathOf } from "../../api/contract/endpoint";
import { BACKUP_STATUSES, backupsApi, snapshotLabel, type Backup, type BackupStatus } from "../../api/contract/backups";
import { say } from "../lifecycle/steps";
import { findInstance } from "./instance-power";
import { tableFor } from "../model/api-table";
import { containsUnknown, type Props } from "../model/table";
import { idInput, madeSince } from "../model/rules";
import { resource, ref, REGION, TYPE, IMAGE } from "./example-parents";

/** A backup as the API answers it (api/contract/backups.ts). */
export type BackupApi = Backup;

/** Every backup of an instance: the automatic ones, then the snapshot being taken and the current one (the list is not paged, but these and the snapshot slot). */
export async function backupsOf(c: ApiClient, computeId: string | number): Promise<Backup[]> {
  const l = await c.call(backupsApi.list, { params: { computeId } });
  return [...l.automatic, ...[l.snapshot.in_progress, l.snapshot.current].filter((b): b is Backup => b !== null)];
}

const FAILED: readonly BackupStatus[] = ["failed", "userAborted"];

export const instanceSnapshotSpec = tableFor({ create: backupsApi.create, get: backupsApi.get })({
  type: "InstanceSnapshot",
  noun: "instance snapshot",
  description:
    "A snapshot of an instance (`POST /compute/instances/{computeId}/backups`): its disks and profiles, kept by the paid backup service (the instance's `backupsEnabled`). Create waits until it is `successful`, with progress lines. An instance has one snapshot slot: a new snapshot replaces the one there, so a program declares at most one per instance. The API deletes no single snapshot: deleting the resource leaves the snapshot in place (until the next one, or the backup service's cancel).",
  idFormat: "The API's integer backup id, as a string: an Instance's `backupId` restores it.",
  replacementNote:
    "The new snapshot takes the instance's one slot, and the old snapshot is gone from the API as soon as it is made; the old resource's delete has nothing to remove.",
  fields: [
    {
      name: "computeId",
      kind: "input",
      required: true,
      forceNew: true,
      inPath: true,
      schema: idInput,
      description: "The instance's id (`instance.id`); its backup service must be enabled. Changing it takes a snapshot of the other instance.",
    },
    {
      name: "label",
      kind: "input",
      computed: true,
      forceNew: true,
      schema: snapshotLabel,
      description: "1..255 characters; auto-named `<resource name>-<suffix>` when left out. Changing it takes a new snapshot (which replaces the old one).",
    },
    {
      name: "status",
      kind: "output",
      schema: z.enum(BACKUP_STATUSES),
      description: "`successful` once taken (`pending`, `running`, `needsPostProcessing` before; `failed`, `userAborted`).",
    },
    { name: "type", kind: "output", description: "`snapshot`." },
    { name: "available", kind: "output", outputType: "boolean", description: "False while the backup is under maintenance (it cannot be restored then)." },
    { name: "configs", kind: "output", outputType: "array", description: "The labels of the configuration profiles in the snapshot." },
    {
      name: "disks",
      kind: "output",
      outputType: "array",
      itemType: "object",
      schema: z.array(z.object({ label: z.string(), size: z.number(), filesystem: z.string() })),
      description: "The disks in the snapshot: `label`, `size` (MB), `filesystem`.",
    },
    { name: "created", kind: "output", description: "When the snapshot was started." },
    { name: "finished", kind: "output", schema: z.string().nullable(), description: "When it finished, or null." },
    { name: "updated", kind: "output", description: "When it last changed." },
  ],
  autoName: { field: "label", ...labelBounds("snapshotLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  timeouts: { defaults: { create: "30m" }, note: "A snapshot can take several minutes." },
  waitCreated: {
    what: "to be taken",
    readyStatus: "successful",
    done: (b) => b.status === "successful",
    failed: (b) => (FAILED.includes(b.status) ? `the snapshot ended ${b.status}` : undefined),
    maxMs: 5_000,
    progressEveryMs: 15_000,
  },
  collectionPath: (inputs) => pathOf(backupsApi.list, { computeId: String(inputs.computeId) }),
  itemPath: (id, props) => pathOf(backupsApi.get, { computeId: String(props.computeId), backupId: id }),
  // A lost create answer: the snapshot in the slot (taken or under way) with our label, made since the create began.
  async findExisting(client, body, inputs, since) {
    const all = await backupsOf(client, String(inputs.computeId));
    return all.find((b) => b.type === "snapshot" && b.label === body.label && madeSince(b.created, since));
  },
});

/** At preview, where it can be told: the instance's backup service (planned by its Instance, else as it is). */
async function backupServiceFailure(program: ProgramContext, computeId: string, client: () => ApiClient): Promise<CheckFailure | undefined> {
  let enabled = plannedBackupsOf(program, computeId);
  if (enabled === undefined) {
    try {
      enabled = (await findInstance(client(), computeId))?.backups.enabled;
    } catch {
      return undefined; // no settings or no answer: the API says it at create
    }
  }
  if (enabled !== false) return undefined;
  return {
    property: "computeId",
    reason: `computeId: instance ${computeId} has no backup service: set backupsEnabled: true on its Instance (the paid service keeps snapshots)`,
  };
}

/** An instance snapshot: one per instance in a program, the backup service checked at preview, a wait until taken. */
export const instanceSnapshot = defineResource({
  spec: instanceSnapshotSpec,
  example: () => {
    const web = resource("Instance", "web", { region: REGION, type: TYPE, image: IMAGE, backupsEnabled: true });
    const snapshot = resource("InstanceSnapshot", "before-upgrade", { computeId: ref(web), label: "before-upgrade" });
    return {
      title: "A snapshot of an instance whose backup service is on",
      resources: [web, snapshot],
      outputs: { snapshotId: ref(snapshot), snapshotStatus: ref(snapshot, "status") },
    };
  },
  lookup: {
    name: "getInstanceBackups",
    scope: "`computes:read_only`",
    listKey: "backups",
    description: "The backups of an instance: the automatic ones, and the snapshot under way and the current one.",
    parents: { computeId: "instance" },
    list: async (c, _path, args) => (await backupsOf(c, String(args.computeId))).map((b) => ({ ...b })),
  },
  sdk: { file: "instanceSnapshot" },
  hooks: {
    async validate(news, olds, { program }, client) {
      const computeId = news.computeId;
      if (computeId === undefined || containsUnknown(computeId)) return [];
      const name = typeof news[RESOURCE_NAME] === "string" ? news[RESOURCE_NAME] : String(news.label);
      const holder = claimSnapshotSlot(program, String(computeId), `InstanceSnapshot ${name}`);
      if (holder !== undefined) {
        return [
          {
            property: "computeId",
            reason: `computeId: instance ${String(computeId)} has one snapshot slot, which ${holder} of this program takes: a second snapshot would replace the first`,
          },
        ];
      }
      // A snapshot that exists is not taken again: only a new one needs the service now.
      const failure = isExisting(olds) ? undefined : await backupServiceFailure(program, String(computeId), client);
      return failure ? [failure] : [];
    },
    /**
     * The API deletes no single snapshot: nothing is sent, and a line says what the API shows: the snapshot
     * still in the slot (it stays), or already replaced by a newer one (a replacement).
     */
    async deleteSteps({ client: c, id, props }) {
      say(`${instanceSnapshotSpec.noun} ${id} leaves the stack: ${await keptSnapshot(c, id, props)}`);
      return 200;
    },
  },
});
export const instanceSnapshotProvider = instanceSnapshot.provider;

/** What becomes of a snapshot whose resource is deleted, as the API shows it now. */
async function keptSnapshot(c: ApiClient, id: string, props: Props): Promise<string> {
  const kept = "the API deletes no single snapshot: it stays in the API, in the instance's slot, until the next snapshot or the backup service's cancel";
  const all = await backupsOf(c, String(props.computeId)).catch(() => undefined);
  if (all === undefined || all.some((b) => String(b.id) === id)) return kept;
  const newer = all.find((b) => b.type === "snapshot");
  return newer
    ? `it is no longer in the API: the instance's one snapshot slot now holds snapshot ${newer.id} (${newer.label ?? "no label"}), which replaced it`
    : "it is no longer in the API (the instance's snapshot slot is empty): nothing to remove";
}

// The inputs its examples may give (InstanceSnapshot): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    InstanceSnapshot: ExampleProps<typeof instanceSnapshotSpec.fields>;
  }
}
