import type { ApiClient } from "../transport/client";

/**
 * The instance types of the catalogue (`/compute/types`): what an instance's resize and swap changes and a
 * database's resize read of them (their disk allowance).
 */

/** An instance type's path. */
export const typePath = (type: unknown): string => `/compute/types/${encodeURIComponent(String(type))}`;

/** An instance type's disk allowance in MB (undefined for a type the catalogue does not have). */
export const typeDisk = async (c: ApiClient, type: unknown): Promise<number | undefined> => (await c.get<{ disk: number }>(typePath(type), true))?.disk;
