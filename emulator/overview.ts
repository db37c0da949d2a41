import type { RequestLogEntry } from "./request-log";
import type { FaultConfig } from "./faults";

/**
 * What the emulator's page shows of an account (`GET /__emulator/overview`): its resources by type, read
 * through the API itself (so each status is the one a client would see now), its last events and requests,
 * and the faults and rate limit in force.
 */
export interface Overview {
  account: { id: number; label: string };
  /** For the emulator's root token: every account, to choose from. */
  accounts?: Array<{ id: number; label: string }>;
  speed: number;
  resources: Array<{ type: string; rows: Array<{ id: number | string; label: string; status: string; detail: string }> }>;
  events: Array<{ id: number; created: string; action: string; status: string; percent: number | null; entity: string }>;
  requests: RequestLogEntry[];
  faults: { config: FaultConfig | null; counts: Record<string, number> };
  rateLimit: { perSecond: number | null; limited: number };
}

/** What the overview needs of an account. */
export interface OverviewSource {
  meta: { id: number; label: string };
  log: RequestLogEntry[];
  faults: { config: FaultConfig | undefined; counts: Record<string, number> };
  rateLimit: { limit: number | undefined; limited: number };
  call(method: string, path: string): Promise<{ status: number; body: unknown }>;
}

type Item = Record<string, unknown>;
const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** Up to 500 items of an API list (the page shows the first 500 of each type). */
async function items(source: OverviewSource, path: string): Promise<Item[]> {
  const answer = await source.call("GET", `${path}${path.includes("?") ? "&" : "?"}page_size=500`);
  return answer.status === 200 ? ((answer.body as { data: Item[] }).data ?? []) : [];
}

export async function overview(source: OverviewSource, speed: number): Promise<Overview> {
  const instances = await items(source, "/compute/instances");
  const disks: Item[] = [];
  for (const inst of instances.slice(0, 50)) {
    for (const disk of await items(source, `/compute/instances/${text(inst.id)}/disks`)) disks.push({ ...disk, on: inst.label });
  }
  const vpcs = await items(source, "/vpcs");
  const subnets: Item[] = [];
  for (const vpc of vpcs.slice(0, 50)) for (const s of (vpc.subnets as Item[] | undefined) ?? []) subnets.push({ ...s, on: vpc.label });
  const row = (x: Item, status: unknown, detail: string) => ({ id: x.id as number | string, label: text(x.label), status: text(status), detail });
  const resources = [
    {
      type: "Instances",
      rows: instances.map((i) =>
        row(i, i.status, `${text(i.type)} in ${text(i.region)}${(i.ipv4 as string[] | undefined)?.length ? `, ${text((i.ipv4 as string[])[0])}` : ""}`),
      ),
    },
    { type: "Disks", rows: disks.map((d) => row(d, d.status, `${text(d.size)} MB ${text(d.filesystem)} on ${text(d.on)}`)) },
    { type: "VPCs", rows: vpcs.map((v) => row(v, "", text(v.region))) },
    { type: "Subnets", rows: subnets.map((s) => row(s, "", `${text(s.ipv4)} in ${text(s.on)}`)) },
    { type: "Images", rows: (await items(source, "/images")).filter((i) => i.is_public === false).map((i) => row(i, i.status, `${text(i.size)} MB`)) },
    {
      type: "Databases",
      rows: (await items(source, "/databases/instances")).map((d) => row(d, d.status, `${text(d.engine)} ${text(d.version)} in ${text(d.region)}`)),
    },
    { type: "SSH keys", rows: (await items(source, "/profile/sshkeys")).map((k) => row(k, "", text(k.created))) },
  ];
  const events = (await items(source, "/account/events?page=1")).slice(0, 25).map((e) => ({
    id: e.id as number,
    created: text(e.created),
    action: text(e.action),
    status: text(e.status),
    percent: (e.percent_complete as number | null) ?? null,
    entity: `${text((e.entity as Item | null)?.type)} ${text((e.entity as Item | null)?.label)}`.trim(),
  }));
  return {
    account: { id: source.meta.id, label: source.meta.label },
    speed,
    resources,
    events,
    requests: source.log.slice(-30).reverse(),
    faults: { config: source.faults.config ?? null, counts: { ...source.faults.counts } },
    rateLimit: { perSecond: source.rateLimit.limit ?? null, limited: source.rateLimit.limited },
  };
}
