/**
 * The replay's bookkeeping of ids and events (tests/integration/cassette-replay.test.ts): the recording's ids
 * mapped to the emulator's as records are made, and how far the events of an answer have come.
 */

// ---- ids -----------------------------------------------------------------------------------------------

/** The keys that hold ids: `id`, `compute_id`..., and the dotted names of a filter (`entity.id`). */
export const ID_KEY = /^(id|.*_id|.*\.id)$/;
export const ID_LISTS = new Set(["ids", "disks", "configs"]);

/** The recording's ids and the emulator's, learnt from the answers as the records are made. */
export class Ids {
  readonly map = new Map<string, string>();

  learn(real: unknown, emu: unknown, key?: string): void {
    if (real === null || emu === null || real === undefined || emu === undefined) return;
    if (Array.isArray(real) && Array.isArray(emu)) {
      // Items are paired by their label where they have one (a list's order may differ), an event with the
      // emulator's of the same action on the same entity, else by position.
      const label = (x: unknown) => (isRecord(x) && typeof x.label === "string" && x.label !== "" ? x.label : undefined);
      const emuByLabel = new Map(emu.filter((x) => label(x) !== undefined).map((x) => [label(x), x] as const));
      const unpaired = new Set(emu);
      real.forEach((r, n) => {
        const twin =
          label(r) !== undefined && emuByLabel.has(label(r))
            ? emuByLabel.get(label(r))
            : isEvent(r)
              ? [...unpaired].find((e) => isEvent(e) && this.sameEvent(r, e))
              : emu[n];
        unpaired.delete(twin);
        this.learn(r, twin, key);
      });
      return;
    }
    if (isRecord(real) && isRecord(emu)) {
      for (const [k, v] of Object.entries(real)) this.learn(v, emu[k], k);
      return;
    }
    if (key === undefined || !ID_KEY.test(key)) return;
    if (typeof real === "number" && typeof emu === "number" && !this.map.has(String(real))) this.map.set(String(real), String(emu));
    if (typeof real === "string" && typeof emu === "string" && real.startsWith("private/") && !this.map.has(real)) this.map.set(real, emu);
  }

  /** A recorded event and one of the emulator's: the same action on the same entity (its id mapped, once known). */
  sameEvent(real: RecordedEvent, emu: RecordedEvent): boolean {
    if (real.action !== emu.action || real.entity?.type !== emu.entity?.type) return false;
    const id = real.entity ? this.map.get(String(real.entity.id)) : undefined;
    return id === undefined || String(emu.entity?.id) === id;
  }

  path(p: string): string {
    const priv = /^(\/images\/)(private\/\d+)(.*)$/.exec(p);
    if (priv) p = priv[1] + (this.map.get(priv[2]) ?? priv[2]) + priv[3];
    return p
      .split("/")
      .map((seg) => (/^\d+$/.test(seg) ? (this.map.get(seg) ?? seg) : seg))
      .join("/");
  }

  body(v: unknown, key?: string): unknown {
    if (key === "expiry" && typeof v === "string" && Date.parse(`${v}Z`) < Date.now())
      return new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 19);
    if (v === "REDACTED" && key === "email") return "recorded@example.com";
    if (Array.isArray(v)) return v.map((x) => this.body(x, key !== undefined && ID_LISTS.has(key) ? "id" : undefined));
    // A filter's operator (`"id": {"+gte": 123}`) holds a value of its field; `+and` and `+or` hold filters.
    const operator = (k: string) => k.startsWith("+") && k !== "+and" && k !== "+or";
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.body(x, operator(k) ? key : k)]));
    if (key !== undefined && ID_KEY.test(key)) {
      if (typeof v === "number" && this.map.has(String(v))) return Number(this.map.get(String(v)));
      if (typeof v === "string" && this.map.has(v)) return this.map.get(v);
    }
    if (typeof v === "string" && this.map.has(v) && v.startsWith("private/")) return this.map.get(v);
    return v;
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An event as the answers hold it (the parts read). */
export interface RecordedEvent {
  action: unknown;
  status?: unknown;
  entity?: { id: unknown; type: unknown } | null;
}
export const isEvent = (v: unknown): v is RecordedEvent => isRecord(v) && typeof v.action === "string" && "entity" in v && "status" in v;

// ---- events --------------------------------------------------------------------------------------------

export const isEventPath = (path: string) => path === "/account/events" || path.startsWith("/account/events/");

/** The events an answer shows: a list's items, or the one event. */
export const eventsOf = (body: unknown): RecordedEvent[] =>
  isRecord(body) && Array.isArray(body.data) ? body.data.filter(isEvent) : isEvent(body) ? [body] : [];

/** How far an event has gone: queued, under way (or a notification), done. */
export const STAGE: Record<string, number> = { scheduled: 0, started: 1, notification: 1, finished: 2, failed: 2 };
export const stage = (e: RecordedEvent | undefined) => (e === undefined ? -1 : (STAGE[String(e.status)] ?? -1));

/**
 * Whether the emulator's answer shows the recorded events at least as far as the recording did: as many,
 * each (in order) at the recorded status or further (`finished` when the client waited for it to finish;
 * a recorded `started` is passed by a `finished`, since the emulator runs faster).
 */
export function eventsReached(real: unknown, emu: unknown): boolean {
  const [r, e] = [eventsOf(real), eventsOf(emu)];
  return r.length === e.length && r.every((x, n) => stage(e[n]) >= stage(x));
}

export const statusesOf = (body: unknown) => JSON.stringify(eventsOf(body).map((e) => e.status));
