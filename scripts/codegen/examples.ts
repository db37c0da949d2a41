/**
 * Each resource's example, in TypeScript, Python, Go and YAML, for its description in schema.json (Pulumi's
 * `{{% examples %}}` form: each SDK's code generator keeps its own language's block, `codegen.FilterExamples`).
 *
 * One structured program per resource type (the resource, with the parents it needs and what it exports),
 * rendered by a small printer per language, so the four cannot drift apart. The values are ones the provider
 * and the emulator accept (regions, types, images and engines of emulator/data/catalog.json). The examples are
 * compiled (TypeScript, Go), byte-compiled (Python) and run through the CLI (YAML) by
 * tests/integration/examples.test.ts.
 */
// schema.ts imports this module too: its constants are read when an example is rendered, not at load.
import { GO_SDK_IMPORT, NODE_SDK_PACKAGE, PYTHON_SDK_PACKAGE } from "./schema";

/** Another resource's output: `id`, or any property of it. */
interface Ref {
  kind: "ref";
  of: Res;
  prop: string;
}
/** An object of a named schema type (`compute:index:<type>`). */
interface Obj {
  kind: "object";
  type: string;
  fields: Fields;
}
/** A map of objects of a named schema type (a Config's `devices`). */
interface MapOf {
  kind: "map";
  type: string;
  entries: Record<string, Obj>;
}
type Value = string | number | boolean | Ref | Obj | MapOf | Value[];
type Fields = Record<string, Value>;
/** A resource of the program: its logical name (kebab-case; the variables are named after it), type and inputs. */
interface Res {
  name: string;
  type: string;
  props: Fields;
}
/** An example: a title, its resources in order (parents first), and the stack outputs. */
interface Example {
  title: string;
  resources: Res[];
  outputs: Record<string, Ref>;
}

const resource = (type: string, name: string, props: Fields): Res => ({ name, type, props });
const ref = (of: Res, prop = "id"): Ref => ({ kind: "ref", of, prop });
const obj = (type: string, fields: Fields): Obj => ({ kind: "object", type, fields });
const mapOf = (type: string, entries: Record<string, Obj>): MapOf => ({ kind: "map", type, entries });

const REGION = "us-east";
const TYPE = "c1-standard-2";
const IMAGE = "compute/debian12";
/** A real ed25519 public key (its private half was thrown away). */
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINNGSGOUj+xUx2+sJzQ7ZxOFJwhk7EsCze6Ae+LDb5HD deploy@example.com";

// Parents several examples need, made anew in each example (an example is a whole program).
/** An instance created empty: its disks and profiles are resources of their own. */
const emptyHost = () => resource("Instance", "host", { region: REGION, type: TYPE });
/** A boot disk deployed from an image on an empty instance. */
const bootDisk = (host: Res) => resource("Disk", "boot", { computeId: ref(host), size: 20480, image: IMAGE, authorizedKeys: [PUBLIC_KEY] });
const device = (disk: Res) => obj("ConfigDevice", { diskId: ref(disk) });
const mysql = () =>
  resource("MysqlDatabase", "app-db", {
    region: REGION,
    type: TYPE,
    engine: "mysql/8.0.35",
    allowList: ["10.0.1.0/24"],
    updates: obj("MysqlDatabaseUpdates", { frequency: "weekly", duration: 2, hourOfDay: 3, dayOfWeek: 7 }),
  });
const postgres = (name: string, extra: Fields = {}) =>
  resource("PostgresDatabase", name, { region: REGION, type: "c1-standard-4", engine: "postgresql/16.1", allowList: ["10.0.1.0/24"], ...extra });

/** One example per resource type of provider/registry.ts (tests/integration/examples.test.ts checks that none is missing). */
const EXAMPLES: Record<string, () => Example> = {
  Instance: () => {
    const net = resource("Vpc", "net", { region: REGION, description: "web tier" });
    const app = resource("Subnet", "app", { vpcId: ref(net), ipv4: "10.0.1.0/24" });
    const web = resource("Instance", "web", {
      region: REGION,
      type: TYPE,
      image: IMAGE,
      authorizedKeys: [PUBLIC_KEY],
      tags: ["web", "production"],
      backupsEnabled: true,
      interfaces: [obj("InstanceInterface", { purpose: "public", primary: true }), obj("InstanceInterface", { purpose: "vpc", subnetId: ref(app) })],
    });
    return {
      title: "A web server deployed from an image, with a public and a VPC interface",
      resources: [net, app, web],
      outputs: { publicIps: ref(web, "ipv4"), vpcIp: ref(web, "vpcIpv4") },
    };
  },
  Disk: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, label: "data", filesystem: "ext4" });
    return {
      title: "A boot disk from an image and a data disk on an instance created empty",
      resources: [host, boot, data],
      outputs: { bootDiskId: ref(boot), dataDiskStatus: ref(data, "status") },
    };
  },
  Config: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const data = resource("Disk", "data", { computeId: ref(host), size: 10240, filesystem: "ext4" });
    const profile = resource("Config", "profile", {
      computeId: ref(host),
      label: "debian12",
      devices: mapOf("ConfigDevice", { sda: device(boot), sdb: device(data) }),
      kernel: "compute/latest-64bit",
      rootDevice: "/dev/sda",
      booted: true,
    });
    return {
      title: "A profile that boots an instance from its own disks",
      resources: [host, boot, data, profile],
      outputs: { profileId: ref(profile), instanceStatus: ref(host, "status") },
    };
  },
  Interface: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backendSubnet = resource("Subnet", "backend-subnet", { vpcId: ref(net), ipv4: "10.0.2.0/24" });
    const host = emptyHost();
    const boot = bootDisk(host);
    const profile = resource("Config", "profile", { computeId: ref(host), devices: mapOf("ConfigDevice", { sda: device(boot) }), booted: true });
    const backend = resource("Interface", "backend", { computeId: ref(host), configId: ref(profile), purpose: "vpc", subnetId: ref(backendSubnet) });
    return {
      title: "A VPC interface added to an instance's profile",
      resources: [net, backendSubnet, host, boot, profile, backend],
      outputs: { interfaceId: ref(backend), addresses: ref(backend, "ipv4") },
    };
  },
  InstanceSnapshot: () => {
    const web = resource("Instance", "web", { region: REGION, type: TYPE, image: IMAGE, backupsEnabled: true });
    const snapshot = resource("InstanceSnapshot", "before-upgrade", { computeId: ref(web), label: "before-upgrade" });
    return {
      title: "A snapshot of an instance whose backup service is on",
      resources: [web, snapshot],
      outputs: { snapshotId: ref(snapshot), snapshotStatus: ref(snapshot, "status") },
    };
  },
  Vpc: () => {
    const prod = resource("Vpc", "prod", { region: REGION, label: "prod", description: "production network" });
    return { title: "A VPC for production", resources: [prod], outputs: { vpcId: ref(prod) } };
  },
  Subnet: () => {
    const net = resource("Vpc", "net", { region: REGION });
    const backend = resource("Subnet", "backend", { vpcId: ref(net), label: "backend", ipv4: "10.0.1.0/24" });
    return { title: "A subnet of a VPC", resources: [net, backend], outputs: { subnetId: ref(backend) } };
  },
  Image: () => {
    const host = emptyHost();
    const boot = bootDisk(host);
    const golden = resource("Image", "golden", { diskId: ref(boot), label: "golden-debian12", description: "Debian 12 with the deploy key" });
    return {
      title: "A private image captured from a disk",
      resources: [host, boot, golden],
      outputs: { imageId: ref(golden), minimumSize: ref(golden, "size") },
    };
  },
  MysqlDatabase: () => {
    const db = mysql();
    return {
      title: "A MySQL cluster open to one subnet, with a weekly maintenance window",
      resources: [db],
      outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), password: ref(db, "password") },
    };
  },
  PostgresDatabase: () => {
    const db = postgres("analytics-db", { clusterSize: 3, replicationType: "asynch", replicationCommitType: "local" });
    return {
      title: "A three-node PostgreSQL cluster",
      resources: [db],
      outputs: { hosts: ref(db, "hosts"), port: ref(db, "port"), caCertificate: ref(db, "caCertificate") },
    };
  },
  MysqlDatabaseSnapshot: () => {
    const db = mysql();
    const snapshot = resource("MysqlDatabaseSnapshot", "before-migration", { databaseId: ref(db), label: "beforemigration" });
    return { title: "A snapshot of a MySQL cluster before a migration", resources: [db, snapshot], outputs: { snapshotId: ref(snapshot) } };
  },
  PostgresDatabaseSnapshot: () => {
    const db = postgres("app-db");
    const snapshot = resource("PostgresDatabaseSnapshot", "before-upgrade", { databaseId: ref(db), label: "beforeupgrade", target: "primary" });
    return {
      title: "A snapshot of a PostgreSQL cluster's primary node",
      resources: [db, snapshot],
      outputs: { snapshotId: ref(snapshot), snapshotCreated: ref(snapshot, "created") },
    };
  },
  SshKey: () => {
    const deploy = resource("SshKey", "deploy", { label: "deploy", sshKey: PUBLIC_KEY });
    return { title: "A public SSH key in the profile", resources: [deploy], outputs: { keyId: ref(deploy) } };
  },
  Token: () => {
    const monitoring = resource("Token", "monitoring", { label: "monitoring-agent", scopes: "computes:read_only databases:read_only" });
    return {
      title: "A read-only token for a monitoring agent",
      resources: [monitoring],
      outputs: { tokenId: ref(monitoring), token: ref(monitoring, "token") },
    };
  },
};

/** The languages of each example, in the order they appear. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/**
 * The `{{% examples %}}` section appended to the description of resource `type` (a spec.type of
 * provider/registry.ts), or "" when the type has no example (the test names it).
 */
export function examplesSection(type: string): string {
  const make = EXAMPLES[type];
  if (!make) return "";
  const ex = make();
  const code = exampleCode(ex);
  const blocks = EXAMPLE_LANGUAGES.map((lang) => "```" + lang + "\n" + code[lang] + "\n```").join("\n");
  return `\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n### ${ex.title}\n\n${blocks}\n{{% /example %}}\n{{% /examples %}}`;
}

function exampleCode(ex: Example): Record<ExampleLanguage, string> {
  return { typescript: typescript(ex), python: python(ex), go: go(ex), yaml: yaml(ex) };
}

// --- names ------------------------------------------------------------------------------------------------

const camel = (name: string) => name.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const snake = (name: string) =>
  name
    .replace(/-/g, "_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
const pascal = (name: string) => name.charAt(0).toUpperCase() + camel(name).slice(1);
const isRef = (v: Value): v is Ref => typeof v === "object" && !Array.isArray(v) && v.kind === "ref";
const isScalar = (v: Value) => typeof v !== "object" || isRef(v);
/** A small object (at most two fields, each a scalar) is written on one line. */
const isSmall = (o: Obj) => Object.keys(o.fields).length <= 2 && Object.values(o.fields).every(isScalar);
const str = (s: string) => JSON.stringify(s);

/** Every resource an example's resources or outputs refer to. */
function referenced(ex: Example): Set<Res> {
  const seen = new Set<Res>();
  const walk = (v: Value): void => {
    if (isRef(v)) seen.add(v.of);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object") Object.values(v.kind === "object" ? v.fields : v.entries).forEach(walk);
  };
  for (const r of ex.resources) Object.values(r.props).forEach(walk);
  Object.values(ex.outputs).forEach(walk);
  return seen;
}

// --- TypeScript (the generated Node.js SDK) -----------------------------------------------------------------

function typescript(ex: Example): string {
  const ind = (n: number) => "    ".repeat(n);
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : str(k));
  const value = (v: Value, depth: number): string => {
    if (typeof v === "string") return str(v);
    if (typeof v !== "object") return String(v);
    if (isRef(v)) return `${camel(v.of.name)}.${v.prop}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) return `[${v.map((x) => value(x, depth)).join(", ")}]`;
      return `[\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}]`;
    }
    if (v.kind === "object" && isSmall(v))
      return `{ ${Object.entries(v.fields)
        .map(([k, x]) => `${key(k)}: ${value(x, depth)}`)
        .join(", ")} }`;
    return object(v.kind === "object" ? v.fields : v.entries, depth);
  };
  const object = (fields: Fields, depth: number) =>
    `{\n${Object.entries(fields)
      .map(([k, x]) => `${ind(depth + 1)}${key(k)}: ${value(x, depth + 1)},\n`)
      .join("")}${ind(depth)}}`;
  const lines = [`import * as compute from "${NODE_SDK_PACKAGE}";`, ""];
  for (const r of ex.resources) lines.push(`const ${camel(r.name)} = new compute.${r.type}(${str(r.name)}, ${object(r.props, 0)});`);
  for (const [k, v] of Object.entries(ex.outputs)) lines.push(`export const ${k} = ${value(v, 0)};`);
  return lines.join("\n");
}

// --- Python (the generated Python SDK) --------------------------------------------------------------------

function python(ex: Example): string {
  const ind = (n: number) => "    ".repeat(n);
  const value = (v: Value, depth: number): string => {
    if (typeof v === "string") return str(v);
    if (typeof v === "boolean") return v ? "True" : "False";
    if (typeof v === "number") return String(v);
    if (isRef(v)) return `${snake(v.of.name)}.${snake(v.prop)}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) return `[${v.map((x) => value(x, depth)).join(", ")}]`;
      return `[\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}]`;
    }
    if (v.kind === "map") {
      return `{\n${Object.entries(v.entries)
        .map(([k, x]) => `${ind(depth + 1)}${str(k)}: ${value(x, depth + 1)},\n`)
        .join("")}${ind(depth)}}`;
    }
    if (isSmall(v))
      return `compute.${v.type}Args(${Object.entries(v.fields)
        .map(([k, x]) => `${snake(k)}=${value(x, depth)}`)
        .join(", ")})`;
    return `compute.${v.type}Args(\n${kwargs(v.fields, depth + 1)}${ind(depth)})`;
  };
  const kwargs = (fields: Fields, depth: number) =>
    Object.entries(fields)
      .map(([k, x]) => `${ind(depth)}${snake(k)}=${value(x, depth)},\n`)
      .join("");
  const lines = ["import pulumi", `import ${PYTHON_SDK_PACKAGE} as compute`, ""];
  for (const r of ex.resources) lines.push(`${snake(r.name)} = compute.${r.type}(\n${ind(1)}${str(r.name)},\n${kwargs(r.props, 1)})`);
  for (const [k, v] of Object.entries(ex.outputs)) lines.push(`pulumi.export(${str(k)}, ${value(v, 0)})`);
  return lines.join("\n");
}

// --- Go (the generated Go SDK), laid out as gofmt does -----------------------------------------------------

function go(ex: Example): string {
  const ind = (n: number) => "\t".repeat(n);
  const used = referenced(ex);
  const scalar = (v: string | number | boolean) =>
    typeof v === "string" ? `pulumi.String(${str(v)})` : typeof v === "number" ? `pulumi.Int(${v})` : `pulumi.Bool(${String(v)})`;
  const value = (v: Value, depth: number): string => {
    if (typeof v !== "object") return scalar(v);
    if (isRef(v)) return `${camel(v.of.name)}.${v.prop === "id" ? "ID()" : pascal(v.prop)}`;
    if (Array.isArray(v)) {
      if (v.every(isScalar)) {
        const kind = v.some((x) => typeof x === "number") ? "Int" : v.some((x) => typeof x === "boolean") ? "Bool" : "String";
        return `pulumi.${kind}Array{${v.map((x) => value(x, depth)).join(", ")}}`;
      }
      const item = (v[0] as Obj).type;
      return `compute.${item}Array{\n${v.map((x) => `${ind(depth + 1)}${value(x, depth + 1)},\n`).join("")}${ind(depth)}}`;
    }
    if (v.kind === "map") return `compute.${v.type}Map{\n${entries(Object.entries(v.entries), depth + 1, str)}${ind(depth)}}`;
    if (isSmall(v))
      return `&compute.${v.type}Args{${Object.entries(v.fields)
        .map(([k, x]) => `${pascal(k)}: ${value(x, depth)}`)
        .join(", ")}}`;
    return `&compute.${v.type}Args{\n${entries(Object.entries(v.fields), depth + 1, pascal)}${ind(depth)}}`;
  };
  // gofmt aligns the values of consecutive one-line `key: value` entries; an entry over several lines
  // stands alone and ends the run.
  const entries = (list: Array<[string, Value]>, depth: number, keyOf: (k: string) => string) => {
    const rendered = list.map(([k, x]) => ({ key: `${keyOf(k)}:`, value: value(x, depth) }));
    let out = "";
    for (let i = 0; i < rendered.length;) {
      let j = i;
      while (j < rendered.length && !rendered[j].value.includes("\n")) j++;
      if (j === i) {
        out += `${ind(depth)}${rendered[i].key} ${rendered[i].value},\n`;
        i++;
        continue;
      }
      const width = Math.max(...rendered.slice(i, j).map((e) => e.key.length));
      for (const e of rendered.slice(i, j)) out += `${ind(depth)}${e.key.padEnd(width)} ${e.value},\n`;
      i = j;
    }
    return out;
  };
  const imports = [GO_SDK_IMPORT, "github.com/pulumi/pulumi/sdk/v3/go/pulumi"].sort();
  const body: string[] = [];
  let errDeclared = false;
  for (const r of ex.resources) {
    const name = used.has(r) ? camel(r.name) : "_";
    const assign = name !== "_" || !errDeclared ? ":=" : "=";
    errDeclared = true;
    body.push(
      `${name}, err ${assign} compute.New${r.type}(ctx, ${str(r.name)}, &compute.${r.type}Args{\n${entries(Object.entries(r.props), 3, pascal)}${ind(2)}})`,
      "if err != nil {",
      `${ind(1)}return err`,
      "}",
    );
  }
  for (const [k, v] of Object.entries(ex.outputs)) body.push(`ctx.Export(${str(k)}, ${value(v, 2)})`);
  body.push("return nil");
  return [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `${ind(1)}${str(i)}`),
    ")",
    "",
    "func main() {",
    `${ind(1)}pulumi.Run(func(ctx *pulumi.Context) error {`,
    ...body.map((l) => `${ind(2)}${l}`),
    `${ind(1)}})`,
    "}",
  ].join("\n");
}

// --- YAML (a Pulumi YAML program) -------------------------------------------------------------------------

function yaml(ex: Example): string {
  const ind = (n: number) => "  ".repeat(n);
  const plain = (s: string) => /^[A-Za-z0-9/][\w./ -]*$/.test(s) && !/^(true|false|null|yes|no|on|off|[\d.]+)$/i.test(s) && !s.endsWith(" ");
  const scalar = (v: Value): string => {
    if (typeof v === "string") return plain(v) ? v : str(v);
    if (isRef(v)) return `\${${v.of.name}.${v.prop}}`;
    return String(v);
  };
  // A mapping's entries at `depth`, each `key: value` or `key:` and its block below.
  const mapping = (fields: Record<string, Value>, depth: number): string =>
    Object.entries(fields)
      .map(([k, x]) => {
        if (isScalar(x)) return `${ind(depth)}${k}: ${scalar(x)}\n`;
        return `${ind(depth)}${k}:\n${block(x, depth + 1)}`;
      })
      .join("");
  const block = (v: Value, depth: number): string => {
    if (Array.isArray(v)) {
      return v
        .map((x) => {
          if (isScalar(x)) return `${ind(depth)}- ${scalar(x)}\n`;
          // A mapping as a list item: its first line after the dash, the others under it.
          const inner = block(x, depth + 1);
          return `${ind(depth)}- ${inner.slice(ind(depth + 1).length)}`;
        })
        .join("");
    }
    const o = v as Obj | MapOf;
    return mapping(o.kind === "object" ? o.fields : o.entries, depth);
  };
  let out = "resources:\n";
  for (const r of ex.resources) out += `${ind(1)}${r.name}:\n${ind(2)}type: compute:index:${r.type}\n${ind(2)}properties:\n${mapping(r.props, 3)}`;
  out += `outputs:\n${mapping(ex.outputs, 1)}`;
  return out.trimEnd();
}
