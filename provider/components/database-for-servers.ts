import { z } from "zod";
import type { ExampleProps } from "../model/example";
import { engineId } from "../../api/contract/databases";
import { vpcAddress } from "../../api/contract/interfaces";
import { containsUnknown, isObject, type Field } from "../model/table";
import { mysqlSpec } from "../resources/database";
import { ref, REGION, resource, TYPE } from "../resources/example-parents";
import { derive, input, inputFrom, Linked, schemaOf, type ComponentContext, type ComponentDefinition } from "./component";
import { serverInVpc } from "./server-in-vpc";

/**
 * `DatabaseForServers`: a managed database (a MysqlDatabase or a PostgresDatabase child, by its engine) whose
 * allow list is the given servers' addresses (`/32` each) and nothing else but `extraAllowList`: a server's
 * new address, or one more server, updates the allow list in place.
 */

const F = mysqlSpec.fields;

const inputs = [
  input({
    name: "engine",
    required: true,
    schema: z.union([engineId("mysql"), engineId("postgresql")], { error: "must be `mysql/<version>` or `postgresql/<version>`" }),
    description:
      "`mysql/<version>` (a MysqlDatabase child) or `postgresql/<version>` (a PostgresDatabase child), as the database resources take it; must be known at preview (it decides the child's type). Changing it replaces the database.",
  }),
  inputFrom(F, "region", { name: "region", required: true, description: "Region id. Changing it replaces the database (a new, empty one)." }),
  inputFrom(F, "type", { name: "type", required: true, description: "Instance type of the nodes. Changed in place, to a type with more disk only." }),
  inputFrom(F, "label", { name: "label", description: "The database's label (auto-named `<name>-db-<suffix>` when left out). Changed in place." }),
  inputFrom(F, "clusterSize", { name: "clusterSize", description: "1 node, or 3. Changing it replaces the database." }),
  inputFrom(F, "encrypted", { name: "encrypted", description: "Encryption at rest (default false). Changing it replaces the database." }),
  inputFrom(F, "sslConnection", { name: "sslConnection", description: "Require SSL to connect (default true). Changing it replaces the database." }),
  input({
    name: "servers",
    required: true,
    schema: z.array(vpcAddress),
    description:
      "The IPv4 addresses of the servers that may connect (a ServerInVpc's `privateIpv4` or `publicIpv4`, an Instance's `ipv4[0]`): each is in the allow list as `<address>/32`. Changed in place (the database's allow list).",
  }),
  input({
    name: "extraAllowList",
    schema: schemaOf(F, "allowList"),
    description: "More addresses and CIDR ranges that may connect, after the servers'. Changed in place (the database's allow list).",
  }),
];

const outputs: Field[] = [
  { name: "databaseId", kind: "output", required: true, description: "The database's id." },
  { name: "host", kind: "output", required: true, description: "The primary host name to connect to." },
  { name: "port", kind: "output", required: true, outputType: "integer", description: "The port to connect to." },
  { name: "allowList", kind: "output", required: true, outputType: "array", description: "The allow list: each server's `/32`, then `extraAllowList`." },
  { name: "username", kind: "output", required: true, secret: true, description: "The root user (secret)." },
  { name: "password", kind: "output", required: true, secret: true, description: "The root password (secret)." },
];

/** The allow list: each server's `/32`, then the extra entries. */
export const allowListOf = (servers: unknown, extra: unknown): string[] => [
  ...(Array.isArray(servers) ? servers.map((s) => `${String(s)}/32`) : []),
  ...(Array.isArray(extra) ? extra.map(String) : []),
];

/** The child's type by the engine's name (before the slash): known by then (`undecided` refuses it unknown). */
const childType = (engine: Linked) => (typeof engine.value === "string" && engine.value.startsWith("postgresql/") ? "PostgresDatabase" : "MysqlDatabase");

async function construct(ctx: ComponentContext): Promise<Record<string, Linked>> {
  const { name, inputs: v } = ctx;
  const allowList = derive([v.servers, ...(v.extraAllowList ? [v.extraAllowList] : [])], (servers, extra) => allowListOf(servers, extra));
  const db = await ctx.child(childType(v.engine), `${name}-db`, {
    engine: v.engine,
    region: v.region,
    type: v.type,
    label: v.label,
    clusterSize: v.clusterSize,
    encrypted: v.encrypted,
    sslConnection: v.sslConnection,
    allowList,
  });
  return {
    databaseId: db.id,
    host: derive([db.out("hosts")], (hosts) => (isObject(hosts) ? hosts.primary : undefined)),
    port: db.out("port"),
    allowList: db.out("allowList"),
    username: db.out("username"),
    password: db.out("password"),
  };
}

export const databaseForServers: ComponentDefinition = {
  type: "DatabaseForServers",
  description:
    "A managed database reachable only from given servers (a component): a MysqlDatabase or PostgresDatabase child whose allow list is each server's address as a `/32` (and `extraAllowList`), following their addresses: a change updates the allow list in place.",
  inputs,
  outputs,
  // The engine decides the child's type.
  undecided: (values) => (containsUnknown(values.engine) ? ["engine"] : []),
  construct,
  example: () => {
    const server = serverInVpc.example();
    const [, , web] = server.resources;
    const db = resource("DatabaseForServers", "app-db", {
      engine: "mysql/8.0.35",
      region: REGION,
      type: TYPE,
      servers: [ref(web, "privateIpv4")],
    });
    return {
      title: "A MySQL database open to one server's private address",
      resources: [...server.resources, db],
      outputs: { ...server.outputs, dbHost: ref(db, "host"), allowList: ref(db, "allowList") },
    };
  },
};

// The inputs an example may give it (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    DatabaseForServers: ExampleProps<typeof inputs>;
  }
}
