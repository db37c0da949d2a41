/**
 * The components the plugin serves (`compute:index:<Type>`, `isComponent` in schema.json), one module each:
 * provider/plugin/construct.ts registers their children, scripts/generate/schema.ts writes their schema entries
 * and docs/components.md their page, from these definitions.
 */
import type { ComponentDefinition } from "./component";
import { databaseForServers } from "./database-for-servers";
import { serverInVpc } from "./server-in-vpc";

export type { ComponentDefinition } from "./component";

export const components: readonly ComponentDefinition[] = [serverInVpc, databaseForServers];
