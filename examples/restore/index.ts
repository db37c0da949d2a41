import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
// The instance whose backups to restore from (made elsewhere, with its backup service enabled).
const sourceId = config.require("sourceInstance");

export = async () => {
  // The newest successful backup of the source (a snapshot or an automatic one), and the source's region
  // (a backup is restored in its own region).
  const [{ backups }, { instances }] = await Promise.all([
    compute.getInstanceBackups({ computeId: sourceId, filters: [{ name: "status", values: ["successful"] }], orderBy: "created", order: "desc" }),
    compute.getInstances({ filters: [{ name: "id", values: [sourceId] }] }),
  ]);
  if (!backups.length) throw new Error(`instance ${sourceId} has no successful backup to restore`);
  if (!instances.length) throw new Error(`instance ${sourceId} not found`);

  const restored = new compute.Instance("restored", {
    label: config.get("label") ?? "restored",
    region: config.get("region") || instances[0].region!,
    type: config.get("type") ?? "c1-standard-2",
    backupId: Number(backups[0].id),
    // Its own backups too, and one of them restored into it in place when `restoreFrom` names it (overwrite:
    // its disks and profiles become the backup's; the instance keeps its id and addresses).
    backupsEnabled: true,
    restore: config.get("restoreFrom") ? { backupId: Number(config.get("restoreFrom")), overwrite: true } : undefined,
  });
  return { restoredId: restored.id, restoredStatus: restored.status, backupId: backups[0].id, backupLabel: backups[0].label };
};
