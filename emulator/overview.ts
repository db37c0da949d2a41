import { z } from "zod";
import { PAGE_SIZE } from "../api/contract/common";
import { pathOf } from "../api/contract/endpoint";
import { API } from "../api/contract";
import type { RequestLogEntry } from "./request-log";
import type { FaultConfig } from "./faults";
import { catalog } from "./catalog";

/**
 * What the emulator's page shows of an account (`GET /__emulator/overview`): its resources by type, read
 * through the API itself (so each status is the one a client would see now) a page at a time (the API's own
 * pages at their largest size, 500: `?instances=2` asks for the second), its last events and requests, and the
 * faults and rate limit in force.
 */

/** The types the overview pages through, each by its query parameter (emulator/admin-api.ts `overviewQuery`). */
export type PagedType = "instances" | "disks" | "vpcs" | "images" | "databases" | "sshkeys";

/** A type's rows as the page shows them. */
export interface OverviewRow {
  id: number | string;
  label: string;
  status: string;
  detail: string;
}

/**
 * One type's section: the page of it shown (`page` of `pages`, by the query parameter `key`), how many there are in
 * all (`results`), and what its rows are of when they follow another type's page (`of`).
 */
export interface OverviewSection {
  type: string;
  key?: PagedType;
  page: number;
  pages: number;
  results: number;
  of?: string;
  rows: OverviewRow[];
}
export interface Overview {
  account: { id: number; label: string };
  /** For the emulator's root token: every account, to choose from. */
  accounts?: Array<{ id: number; label: string }>;
  speed: number;
  resources: OverviewSection[];
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

/** A page of an API list, its items read by their schema (a list it cannot read shows none). */
interface ListPage<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

/** An envelope's page, pages and results (the API's list envelope). */
const envelope = z.object({ page: z.number(), pages: z.number(), results: z.number() });

/** Page `page` of an API list, `size` to a page (the largest by default), read by its answer's schema. */
async function items<T>(source: OverviewSource, path: string, answer: z.ZodType<{ data: T[] }>, page = 1, size: number = PAGE_SIZE.max): Promise<ListPage<T>> {
  const got = await source.call("GET", `${path}${path.includes("?") ? "&" : "?"}page=${page}&page_size=${size}`);
  const read = got.status === 200 ? answer.safeParse(got.body) : undefined;
  const env = got.status === 200 ? envelope.safeParse(got.body) : undefined;
  if (!read?.success || !env?.success) return { data: [], page, pages: 1, results: 0 };
  return { data: read.data.data, ...env.data };
}

/** Disks are shown for this many instances at a time (a disks list each): their own pages. */
export const DISKS_INSTANCES = 50;

/** A section paged by the API's own pages. */
const section = <T>(type: string, key: PagedType, list: ListPage<T>, rows: OverviewRow[], results = list.results): OverviewSection => ({
  type,
  key,
  page: list.page,
  pages: list.pages,
  results,
  rows,
});

export async function overview(source: OverviewSource, speed: number, pages: Partial<Record<PagedType, number>> = {}): Promise<Overview> {
  const row = (x: z.output<typeof named>, status: string, detail: string) => ({ id: x.id, label: x.label ?? "", status, detail });
  const instanceList = await items(source, "/compute/instances", instances, pages.instances);
  // The disks of DISKS_INSTANCES instances at a time: page n is those of the instances of the API's page n at that size.
  const diskParents = await items(source, "/compute/instances", instances, pages.disks, DISKS_INSTANCES);
  const diskRows = [];
  for (const inst of diskParents.data) {
    for (const d of (await items(source, `/compute/instances/${inst.id}/disks`, disks)).data)
      diskRows.push(row(d, d.status, `${d.size} MB ${d.filesystem} on ${inst.label ?? ""}`));
  }
  const first = (diskParents.page - 1) * DISKS_INSTANCES;
  const vpcList = await items(source, "/vpcs", vpcs, pages.vpcs);
  const subnetRows = vpcList.data.flatMap((v) => v.subnets.map((s) => row(s, "", `${s.ipv4} in ${v.label ?? ""}`)));
  const imageList = await items(source, "/images", images, pages.images);
  const databaseList = await items(source, "/databases/instances", databases, pages.databases);
  const keyList = await items(source, pathOf(API.sshKeys.list, {}), API.sshKeys.list.answer, pages.sshkeys);
  const resources: OverviewSection[] = [
    section(
      "Instances",
      "instances",
      instanceList,
      instanceList.data.map((i) => row(i, i.status, `${i.type} in ${i.region}${i.ipv4.length ? `, ${i.ipv4[0]}` : ""}`)),
    ),
    {
      ...section("Disks", "disks", diskParents, diskRows, diskRows.length),
      of:
        diskParents.pages > 1 && diskParents.data.length ? `instances ${first + 1} to ${first + diskParents.data.length} of ${diskParents.results}` : undefined,
    },
    section(
      "VPCs",
      "vpcs",
      vpcList,
      vpcList.data.map((v) => row(v, "", v.region)),
    ),
    { type: "Subnets", page: 1, pages: 1, results: subnetRows.length, of: vpcList.pages > 1 ? "the VPCs on their page" : undefined, rows: subnetRows },
    // The API lists the public images first, then the account's: the section counts the account's.
    section(
      "Images",
      "images",
      imageList,
      imageList.data.filter((i) => !i.is_public).map((i) => row(i, i.status, `${i.size} MB`)),
      Math.max(0, imageList.results - catalog.images.length),
    ),
    section(
      "Databases",
      "databases",
      databaseList,
      databaseList.data.map((d) => row(d, d.status, `${d.engine} ${d.version} in ${d.region}`)),
    ),
    section(
      "SSH keys",
      "sshkeys",
      keyList,
      keyList.data.map((k) => ({ id: k.id, label: k.label, status: "", detail: k.created })),
    ),
  ];
  const events = (await items(source, pathOf(API.events.list, {}), API.events.list.answer)).data.slice(0, 25).map((e) => ({
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
