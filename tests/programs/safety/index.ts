import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

// Every setting comes from the stack's config, so that a test changes one thing at a time.
const config = new pulumi.Config();
const rootPass = config.requireSecret("rootPass");
// An empty value stands for a setting left out (the test harness keeps the stack's config between runs).
const optional = <T>(key: string): T | undefined => {
  const v = config.get(key);
  return v ? (JSON.parse(v) as T) : undefined;
};

// Auto-named: no label anywhere but on the "db" instance.
const net = new compute.Vpc("net", { region: "us-east", description: config.get("netDescription") });
const web = new compute.Instance("web", {
  region: config.get("webRegion") || "us-east",
  type: config.get("webType") || "c1-nano-1",
  image: "compute/debian12",
  rootPass,
  // Script data of the size the config gives (a preview check: at most 65535 characters as JSON).
  scriptData: Number(config.get("scriptDataSize") || 0) > 0 ? { blob: "x".repeat(Number(config.get("scriptDataSize"))) } : undefined,
  tags: optional<string[]>("tags"),
  swapSize: optional<number>("swapSize"),
});
// A pinned label on a resource that holds data.
const db = new compute.Instance("db", {
  label: "safety-db",
  region: config.get("dbRegion") || "us-east",
  type: "c1-nano-1",
  image: "compute/debian12",
  rootPass,
});
const host = new compute.Instance("host", { region: "us-east", type: "c1-standard-2" });
const data = new compute.Disk("data", { computeId: host.id, size: 1024, timeouts: optional<{ create?: string }>("diskTimeouts") });

export const labels = { net: net.label, web: web.label, db: db.label, host: host.label, data: data.label };
export const ids = { net: net.id, web: web.id, db: db.id, host: host.id, data: data.id };
// A read function with the stack's settings only (compute:apiUrl and compute:token, no environment).
export const privateImages = compute.getImages().then((all) => all.filter((i) => !i.isPublic).map((i) => i.label));
