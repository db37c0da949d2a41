import { API } from "../../api/contract";
import { pathOf } from "../../api/contract/endpoint";
import type { InstanceType } from "../../api/contract/reference";
import type { ApiClient } from "../transport/client";

/**
 * The instance types of the catalogue (`/compute/types`): what an instance's resize and swap changes and a
 * database's resize read of them (their disk allowance).
 */

/** An instance type's path. */
export const typePath = (type: unknown): string => pathOf(API.types.get, { typeId: String(type) });

/** An instance type of the catalogue (undefined for a type it does not have). */
export const findType = (c: ApiClient, type: unknown): Promise<InstanceType | undefined> => c.find(API.types.get, { params: { typeId: String(type) } });

/** An instance type's disk allowance in MB (undefined for a type the catalogue does not have). */
export const typeDisk = async (c: ApiClient, type: unknown): Promise<number | undefined> => (await findType(c, type))?.disk;
