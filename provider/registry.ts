import type { ResourceDefinition } from "./definition";
import type { ResourceProvider } from "./lifecycle/hooks";
import { config } from "./resources/config";
import { mysqlDatabase, postgresDatabase } from "./resources/database";
import { mysqlDatabaseSnapshot, postgresDatabaseSnapshot } from "./resources/databaseSnapshot";
import { disk } from "./resources/disk";
import { image } from "./resources/image";
import { instance } from "./resources/instance";
import { instanceSnapshot } from "./resources/instanceSnapshot";
import { iface } from "./resources/interface";
import { sshKey } from "./resources/sshKey";
import { subnet } from "./resources/subnet";
import { token } from "./resources/token";
import { vpc } from "./resources/vpc";
import type { ResourceSpec } from "./model/table";

/**
 * Every resource, as its definition: the one list. The dynamic providers (provider/index.ts), the plugin,
 * the lookups (provider/functions/index.ts), import ids, schema.json, the docs and the sdk classes derive from it.
 * A new resource is its definition, its import and its entry here, and the test cases docs/development.md
 * ("Adding a resource") counts. Its order is the order of the docs and the schema.
 */
export const definitions: ResourceDefinition[] = [
  instance,
  disk,
  config,
  iface,
  instanceSnapshot,
  vpc,
  subnet,
  image,
  mysqlDatabase,
  postgresDatabase,
  mysqlDatabaseSnapshot,
  postgresDatabaseSnapshot,
  sshKey,
  token,
];

export const specs: ResourceSpec[] = definitions.map((d) => d.spec);

export const providers: Record<string, ResourceProvider> = Object.fromEntries(definitions.map((d) => [d.spec.type, d.provider]));

/** The definition of a resource type, or an error naming the types there are. */
export function definitionOf(type: string): ResourceDefinition {
  const d = definitions.find((x) => x.spec.type === type);
  if (!d) throw new Error(`pulumi-compute: unknown resource type "${type}" (this build knows ${definitions.map((x) => x.spec.type).join(", ")})`);
  return d;
}
