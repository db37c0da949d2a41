import type { ApiClient } from "../../transport/client";
import { pathOf } from "../../../api/contract/endpoint";
import { disksApi, type Disk } from "../../../api/contract/disks";
import { DEFAULT_SWAP_SIZE } from "../../../api/contract/instances";
import { waitStatus } from "../../lifecycle/steps";
import { actOn } from "../instance-power";
import { findType } from "../instance-types";
import type { Props } from "../../model/table";

/** `swapSize`: the swap disk an image deploy makes, read back, checked at preview and resized in place. */

/** The disks of an instance. */
const disksOf = (c: ApiClient, id: string): Promise<Disk[]> => c.all(disksApi.list, { params: { computeId: id } });

/** The swap disk an image deploy made, if any. */
async function swapDisk(c: ApiClient, id: string): Promise<Disk | undefined> {
  return (await disksOf(c, id)).find((d) => d.filesystem === "swap");
}

/** The swap disk's size an image deploy makes (compute-api.md: `swap_size` "Default 512"; 0 makes none). */
export const swapAtDeploy = (props: Props): number | undefined =>
  props.image === undefined || props.cloneFrom !== undefined ? undefined : typeof props.swapSize === "number" ? props.swapSize : DEFAULT_SWAP_SIZE;

/** `swapSize` as the instance has it, for an image deploy (0: no swap disk); other instances manage their disks as Disk resources. */
export const swapSizeOf = async (c: ApiClient, id: string, props: Props): Promise<number | undefined> =>
  props.image === undefined ? undefined : ((await swapDisk(c, id))?.size ?? 0);

/**
 * Refuses, at preview, a `swapSize` change the API cannot make in place: adding or removing the swap disk,
 * or growing it past the type's disk allowance.
 */
export async function checkSwapChange(c: ApiClient, id: string, olds: Props, to: number): Promise<void> {
  const disks = await disksOf(c, id);
  const swap = disks.find((d) => d.filesystem === "swap");
  const from = swap?.size ?? 0;
  if (from === to) return;
  if (!swap) throw new Error(`swapSize: instance ${id} has no swap disk to resize to ${to} MB; add one as a Disk resource (filesystem swap) instead`);
  if (to === 0)
    throw new Error(
      `swapSize: 0 would remove instance ${id}'s swap disk, which is not done in place; give a size of 1 MB or more, or delete the swap disk from its profile yourself`,
    );
  const type = await findType(c, olds.type);
  const used = disks.reduce((n, d) => n + d.size, 0);
  if (type && used - from + to > type.disk) {
    throw new Error(
      `swapSize: ${to} MB does not fit: the disks of instance ${id} would use ${used - from + to} MB, more than the ${type.disk} MB of type ${String(olds.type)} (${type.disk - used + from} MB are free for swap); shrink another disk or choose a larger type`,
    );
  }
}

/** Resizes the swap disk (the instance is shut down at this point) and waits until it is ready. */
export async function resizeSwap(c: ApiClient, id: string, size: number, timeoutMs: number): Promise<void> {
  const swap = await swapDisk(c, id);
  if (!swap) throw new Error(`swapSize: instance ${id} has no swap disk`);
  if (swap.size === size) return;
  const disk = { computeId: id, diskId: swap.id };
  await actOn(c, disksApi.resize, disk, { size }, async () => {
    const d = await c.call(disksApi.get, { params: disk });
    return d.status === "not ready" || d.size === size;
  });
  const resized = { what: `to be resized to ${size} MB`, done: (d: Disk) => d.status === "ready" && d.size === size };
  await waitStatus<Disk>(c, pathOf(disksApi.get, disk), `swap disk ${swap.id} of instance ${id}`, resized, timeoutMs);
}

/**
 * Refuses, at preview, a resize to a type whose disk allowance the instance's disks exceed (compute-api.md,
 * rule 6: delete or shrink disks first); `swapTo` is the swap disk's size after the same update.
 */
export async function checkTypeFits(c: ApiClient, id: string, type: string, swapTo?: number): Promise<void> {
  const [disks, kind] = await Promise.all([disksOf(c, id), findType(c, type)]);
  if (!kind) throw new Error(`type: ${type} is not an instance type (getTypes lists them)`);
  const used = disks.reduce((n, d) => n + (d.filesystem === "swap" && swapTo !== undefined ? swapTo : d.size), 0);
  if (used > kind.disk) {
    throw new Error(
      `type: the disks of instance ${id} use ${used} MB, more than the ${kind.disk} MB of type ${type}: a resize needs the disks to fit the new type (shrink or delete disks first, or choose a larger type)`,
    );
  }
}
