import { z } from "zod";
import type { ApiClient } from "../../transport/client";
import type { CheckFailure } from "../../model/check";
import { API } from "../../../api/contract";
import { pathOf, type BodyIn } from "../../../api/contract/endpoint";
import { REGION_CAPABILITY } from "../../../api/contract/reference";
import { findInstance } from "../instance-power";
import { isObject, type Props } from "../../model/table";
import { idInput } from "../../model/rules";

/** `cloneFrom`: an instance made as a clone of another (`POST /compute/instances/{computeId}/clone`). */

export const cloneFromInput = z
  .object({ computeId: idInput, disks: z.array(idInput).optional(), configs: z.array(idInput).optional() })
  .strict()
  // The name of its type in the generated sdk classes.
  .meta({ typeName: "CloneSourceArgs" });

/** Inputs a clone does not take: it copies the source's disks, profiles and their interfaces. */
export const NOT_WITH_CLONE = [
  "image",
  "backupId",
  "scriptId",
  "scriptData",
  "rootPass",
  "authorizedKeys",
  "authorizedUsers",
  "swapSize",
  "interfaces",
  "firewallId",
] as const;

/** What a clone is made from: its source, and what of it to copy. */
export type CloneFrom = z.output<typeof cloneFromInput>;

/** The path a clone of the source is made at. */
export const clonePath = (from: CloneFrom): string => pathOf(API.instanceActions.clone, { computeId: from.computeId });

/** What a clone's body reads of the instance's inputs. */
interface CloneTarget {
  region?: string;
  type?: string;
  label?: string;
  group?: string;
  backupsEnabled?: boolean;
  privateIp?: boolean;
  metadata?: { userData?: string };
}

/** The clone body (api/contract/instance-actions.ts `cloneBody`): a new target instance (its region, type and label), and what of the source to copy. */
export function cloneBody(from: CloneFrom, ins: CloneTarget): BodyIn<typeof API.instanceActions.clone> {
  const body: BodyIn<typeof API.instanceActions.clone> = { region: ins.region, type: ins.type, label: ins.label };
  if (ins.group !== undefined) body.group = ins.group;
  if (ins.backupsEnabled !== undefined) body.backups_enabled = ins.backupsEnabled;
  if (from.disks) body.disks = from.disks;
  if (from.configs) body.configs = from.configs;
  if (ins.privateIp !== undefined) body.private_ip = ins.privateIp;
  const userData = ins.metadata?.userData;
  if (userData !== undefined) body.metadata = { user_data: userData };
  return body;
}

/**
 * The clone rule (4) where the API can be asked before the clone: a source with user data needs
 * `metadata.userData`; a source with a VLAN interface cannot go to a region without VLAN support.
 */
export async function cloneRuleFailures(c: ApiClient, ins: Props): Promise<CheckFailure[]> {
  const from = String(isObject(ins.cloneFrom) ? ins.cloneFrom.computeId : undefined);
  const failures: CheckFailure[] = [];
  const src = await findInstance(c, from);
  if (!src) return [{ property: "cloneFrom", reason: `cloneFrom.computeId: instance ${from} not found` }];
  if (src.has_user_data && ins.metadata === undefined) {
    failures.push({ property: "metadata", reason: `metadata: instance ${from} was made with user data: its clone needs metadata.userData` });
  }
  const profiles = await c.all(API.configs.list, { params: { computeId: from } });
  const vlan = profiles.some((p) => p.interfaces.some((i) => i.purpose === "vlan"));
  if (vlan && typeof ins.region === "string") {
    const region = await c.find(API.regions.get, { params: { regionId: ins.region } });
    if (region && !region.capabilities.includes(REGION_CAPABILITY.vlans)) {
      failures.push({ property: "region", reason: `region: instance ${from} has a VLAN interface, and region ${ins.region} has no VLAN support` });
    }
  }
  return failures;
}
