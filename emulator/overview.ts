import { z } from "zod";
import { PAGE_SIZE } from "../api/contract/common";
import { pathOf } from "../api/contract/endpoint";
import { API } from "../api/contract";
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

/** A list's envelope of `item`s (what the overview reads of a list: its records' own fields are kept, unread). */
const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** A record as a row shows it: its id and label (the lists of families not yet rows of the contract are read by these shapes). */
const named = z.looseObject({ id: z.union([z.number(), z.string()]), label: z.string().nullable() });
const instances = listOf(named.extend({ status: z.string(), type: z.string(), region: z.string(), ipv4: z.array(z.string()) }));
const disks = listOf(named.extend({ status: z.string(), size: z.number(), filesystem: z.string() }));
const vpcs = listOf(named.extend({ region: z.string(), subnets: z.array(named.extend({ ipv4: z.string() })) }));
const images = listOf(named.extend({ status: z.string(), size: z.number(), is_public: z.boolean() }));
const databases = listOf(named.extend({ status: z.string(), engine: z.string(), version: z.string(), region: z.string() }));

/** The first page of an API list at the largest page size, read by its answer's schema (the page shows the first 500 of each type; a list it cannot read shows none). */
async function items<T>(source: OverviewSource, path: string, answer: z.ZodType<{ data: T[] }>): Promise<T[]> {
  const got = await source.call("GET", `${path}${path.includes("?") ? "&" : "?"}page_size=${PAGE_SIZE.max}`);
  const read = got.status === 200 ? answer.safeParse(got.body) : undefined;
  return read?.success ? read.data.data : [];
}

export async function overview(source: OverviewSource, speed: number): Promise<Overview> {
  const row = (x: z.output<typeof named>, status: string, detail: string) => ({ id: x.id, label: x.label ?? "", status, detail });
  const instanceRows = await items(source, "/compute/instances", instances);
  const diskRows = [];
  for (const inst of instanceRows.slice(0, 50)) {
    for (const d of await items(source, `/compute/instances/${inst.id}/disks`, disks))
      diskRows.push(row(d, d.status, `${d.size} MB ${d.filesystem} on ${inst.label ?? ""}`));
  }
  const vpcRows = await items(source, "/vpcs", vpcs);
  const subnetRows = vpcRows.slice(0, 50).flatMap((v) => v.subnets.map((s) => row(s, "", `${s.ipv4} in ${v.label ?? ""}`)));
  const resources = [
    { type: "Instances", rows: instanceRows.map((i) => row(i, i.status, `${i.type} in ${i.region}${i.ipv4.length ? `, ${i.ipv4[0]}` : ""}`)) },
    { type: "Disks", rows: diskRows },
    { type: "VPCs", rows: vpcRows.map((v) => row(v, "", v.region)) },
    { type: "Subnets", rows: subnetRows },
    { type: "Images", rows: (await items(source, "/images", images)).filter((i) => !i.is_public).map((i) => row(i, i.status, `${i.size} MB`)) },
    {
      type: "Databases",
      rows: (await items(source, "/databases/instances", databases)).map((d) => row(d, d.status, `${d.engine} ${d.version} in ${d.region}`)),
    },
    {
      type: "SSH keys",
      rows: (await items(source, pathOf(API.sshKeys.list, {}), API.sshKeys.list.answer)).map((k) => ({
        id: k.id,
        label: k.label,
        status: "",
        detail: k.created,
      })),
    },
  ];
  const events = (await items(source, `${pathOf(API.events.list, {})}?page=1`, API.events.list.answer)).slice(0, 25).map((e) => ({
    id: e.id,
    created: e.created,
    action: e.action,
    status: e.status,
    percent: e.percent_complete,
    entity: `${e.entity?.type ?? ""} ${e.entity?.label ?? ""}`.trim(),
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
