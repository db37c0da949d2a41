/**
 * The contract (api/contract) held to the spec's text, field by field (issue 52): every row of the spec's record
 * tables is a field of its record's schema, of the spec's JSON type, taking exactly the spec's values where it lists
 * them; every field the spec gives a request (the endpoint tables' Request cells and the bodies below them) is a
 * field of its endpoint's body schema, which takes the spec's lengths at their edges and refuses one past them
 * (saying the bound), takes each value the spec lists and refuses another, and refuses the request without a field
 * the spec requires. The spec's words are read by tests/helpers/spec-facts.ts; where the contract departs from them,
 * the departure is below with its reason (docs/spec-gaps.md says each choice).
 */
import { z } from "zod";
import { API, ENDPOINTS } from "../../api/contract";
import { ruleOf } from "../../api/contract/common";
import type { AnyEndpoint } from "../../api/contract/endpoint";
import { lengthsOf, specFacts, valuesOf, type RecordFact, type RequestFact } from "../helpers/spec-facts";

const facts = specFacts();

/** Each record of the spec's tables, and the contract's schema of it (an endpoint's answer, or its list's items). */
const RECORDS: Record<string, z.ZodType> = {
  "Compute instance": API.instances.get.answer,
  "Instance backup record": API.backups.get.answer,
  "Configuration profile": API.configs.get.answer,
  Interface: API.interfaces.get.answer,
  Disk: API.disks.get.answer,
  Statistics: API.instanceActions.stats.answer,
  Kernel: API.kernels.get.answer,
  "Instance type": API.types.get.answer,
  Region: API.regions.get.answer,
  Image: API.images.get.answer,
  Engine: API.databaseEngines.get.answer,
  "Database instance": API.mysqlDatabases.get.answer,
  "Database backup": API.mysqlBackups.get.answer,
  Credentials: API.mysqlDatabases.credentials.answer,
  "SSL certificate": API.mysqlDatabases.ssl.answer,
  Profile: API.profile.get.answer,
  "Authorized app": API.apps.get.answer,
  "Trusted device": API.devices.get.answer,
  Login: API.logins.get.answer,
  "SSH key": API.sshKeys.get.answer,
  "Personal access token": API.tokens.get.answer,
};

/**
 * Records whose fields the spec writes apart from one schema, each with where they are: the grants' `global` fields
 * and per-entity lists (the grants record), the transfer of now and of a month (two answers), the VPC's and the
 * subnet's request fields (their create bodies), the security questions (a request item and the answer), the
 * two-factor secret and its confirmation's scratch code (two answers).
 */
const ELSEWHERE: Record<string, (f: RecordFact) => z.ZodType | undefined> = {
  Grants: (f) => (f.field in globalShape() ? z.object(globalShape()) : API.profile.grants.answer),
  "Network transfer": (f) =>
    ["billable", "quota", "used"].includes(f.field) ? API.instanceActions.transfer.answer : API.instanceActions.transferOfMonth.answer,
  "VPC and subnet": (f) =>
    f.type.includes("CIDR") || (f.field === "label" && f.type === "string 1..64" && lastVpcLabel(f)) ? API.subnets.create.body : API.vpcs.create.body,
  "Security question response": (f) =>
    f.field === "security_questions" ? API.securityQuestions.answer.answer : itemOf(API.securityQuestions.answer.body, "security_questions"),
  "Two-factor secret": (f) => (f.field === "scratch" ? API.twoFactor.confirm.answer : API.twoFactor.enable.answer),
};

function globalShape(): Record<string, z.ZodType> {
  const grants = API.profile.grants.answer;
  return grants instanceof z.ZodObject && grants.shape.global instanceof z.ZodObject ? grants.shape.global.shape : {};
}

/** The VPC and subnet section lists the VPC's fields, then the subnet's (`label`, `ipv4`): the second `label` is the subnet's. */
const lastVpcLabel = (f: RecordFact) => facts.records.filter((r) => r.record === f.record && r.field === "label").indexOf(f) === 1;

/** The schema of the items of a list field of an object schema. */
function itemOf(schema: z.ZodType, field: string): z.ZodType | undefined {
  const list = shapeOf(schema)?.[field];
  const inner = list && unwrap(list);
  return inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
}

/** A schema without its optional, nullable, default and pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  let cur: z.ZodType = s;
  for (let i = 0; i < 10; i++) {
    if (cur instanceof z.ZodOptional || cur instanceof z.ZodNullable || cur instanceof z.ZodDefault) cur = cur.unwrap() as z.ZodType;
    else if (cur instanceof z.ZodPipe) cur = cur.in as z.ZodType;
    else break;
  }
  return cur;
}

/** The fields of an object schema (a list envelope: its items'). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const s = unwrap(schema);
  if (!(s instanceof z.ZodObject)) return undefined;
  const data = s.shape.data;
  if (data && unwrap(data) instanceof z.ZodArray && "page" in s.shape) return shapeOf((unwrap(data) as z.ZodArray<z.ZodType>).element);
  return s.shape;
}

const schemaOfRecord = (f: RecordFact): z.ZodType | undefined => RECORDS[f.record] ?? ELSEWHERE[f.record]?.(f);

/** The JSON types a field's schema answers (zod's JSON Schema of it). */
function jsonTypes(s: z.ZodType): Set<string> {
  const js = z.toJSONSchema(s, { io: "output", unrepresentable: "any" });
  const types = new Set<string>();
  const walk = (n: unknown) => {
    if (typeof n !== "object" || n === null) return;
    const node = n as { type?: string | string[]; anyOf?: unknown[]; oneOf?: unknown[]; enum?: unknown[]; const?: unknown };
    for (const t of [node.type ?? []].flat()) types.add(t === "number" ? "integer" : t);
    for (const m of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(m);
    for (const v of [...(node.enum ?? []), ...("const" in node ? [node.const] : [])])
      types.add(v === null ? "null" : typeof v === "number" ? "integer" : typeof v);
  };
  walk(js);
  return types;
}

/** The JSON type the spec's words give a record's field, and whether it may be null. */
function specType(words: string): { type?: string; nullable: boolean } {
  const m = /^(integer|string|boolean|array|object|date-time|enum|URL|number)/.exec(words);
  const type = m?.[1] === "date-time" || m?.[1] === "URL" ? "string" : m?.[1] === "enum" ? undefined : m?.[1];
  return { type, nullable: /or null/.test(words) };
}

/** Record fields where the contract departs from the spec's table, with the reason. */
const RECORD_DEPARTURES: Record<string, string> = {
  "Engine total_disk_size_gb":
    "The real API answers no disk sizes for an engine (recorded); the spec's table has them, and the contract keeps them (nullable: the 2024 answers hold null).",
  "Engine used_disk_size_gb": "As total_disk_size_gb.",
};

describe("the spec's record tables", () => {
  const cases = facts.records.map((f) => [`${f.record} ${f.field}`, f] as const);

  test.each(cases)("%s is a field of the contract's record, of the spec's type", (name, f) => {
    const schema = schemaOfRecord(f);
    expect({ name, schema: schema !== undefined }).toEqual({ name, schema: true });
    const field = shapeOf(schema!)?.[f.field];
    expect({ name, field: field !== undefined }).toEqual({ name, field: true });
    const { type, nullable } = specType(f.type);
    const types = jsonTypes(field!);
    if (type && !RECORD_DEPARTURES[name])
      expect({ name, types: [...types].filter((t) => t !== "null") }).toEqual({ name, types: expect.arrayContaining([type]) });
    if (nullable) expect({ name, nullable: types.has("null") }).toEqual({ name, nullable: true });
  });

  const enums = facts.records.filter((f) => /enum/.test(f.type) && valuesOf(`${f.type} ${f.notes}`).length > 0);
  test.each(enums.map((f) => [`${f.record} ${f.field}`, f] as const))("%s takes exactly the spec's values", (name, f) => {
    const field = shapeOf(schemaOfRecord(f)!)?.[f.field];
    const spec = valuesOf(`${f.type} ${f.notes}`).map((v) => (f.type.includes("integer") ? Number(v) : v));
    for (const v of spec) expect({ name, v, ok: field!.safeParse(v).success }).toEqual({ name, v, ok: true });
    // An open list ("`password`, or the name of an external identity provider") takes other values too.
    const open = /, or /.test(f.notes);
    expect({ name, other: field!.safeParse("not-a-value-of-the-spec").success }).toEqual({ name, other: open });
  });
});

/** A request's endpoint: the contract's row of its method and path. */
const rowOf = (method: string, path: string): AnyEndpoint | undefined => ENDPOINTS.find((e) => e.method === method && e.path.replace("*", "") === path);

/** The record limits the spec gives in its tables, which the requests that send the field must hold too. */
const LIMITED_BY_RECORD: Array<{ record: string; field: string; endpoints: AnyEndpoint[] }> = [
  { record: "Compute instance", field: "label", endpoints: [API.instances.create, API.instances.update, API.instanceActions.clone] },
  { record: "Configuration profile", field: "label", endpoints: [API.configs.create, API.configs.update] },
  { record: "Disk", field: "label", endpoints: [API.disks.create] },
  { record: "Image", field: "description", endpoints: [API.images.capture, API.images.upload, API.images.update] },
  { record: "Database instance", field: "label", endpoints: [API.mysqlDatabases.create, API.postgresqlDatabases.create, API.mysqlDatabases.update] },
  { record: "Database backup", field: "label", endpoints: [API.mysqlBackups.create, API.postgresqlBackups.create] },
  { record: "SSH key", field: "label", endpoints: [API.sshKeys.create, API.sshKeys.update] },
  { record: "Personal access token", field: "label", endpoints: [API.tokens.create, API.tokens.update] },
  { record: "VPC and subnet", field: "label", endpoints: [API.vpcs.create, API.vpcs.update, API.subnets.create, API.subnets.update] },
  { record: "VPC and subnet", field: "description", endpoints: [API.vpcs.create, API.vpcs.update] },
];

interface BodyFact {
  name: string;
  endpoint: AnyEndpoint;
  field: string;
  words: string;
}

const bodyFacts: BodyFact[] = [
  ...facts.requests.flatMap((f: RequestFact): BodyFact[] => {
    const endpoint = rowOf(f.method, f.path);
    return endpoint ? [{ name: `${f.method} ${f.path} ${f.field}`, endpoint, field: f.field, words: f.text }] : [];
  }),
  ...LIMITED_BY_RECORD.flatMap(({ record, field, endpoints }) => {
    const words = facts.records.find((r) => r.record === record && r.field === field)?.type ?? "";
    return endpoints.map((endpoint) => ({ name: `${endpoint.method} ${endpoint.path} ${field} (${record})`, endpoint, field, words }));
  }),
];

/** The spec's request fields the contract reads otherwise, with the reason. */
const REQUEST_DEPARTURES: Record<string, string> = {
  "POST /compute/instances/{computeId}/rescue volume_id":
    "The Request cell says `devices` (an object keyed by device name) whose values have `disk_id` and `volume_id`: the words are read as a field of the body; the contract has `devices` with those values.",
  "PUT /compute/instances/{computeId} backups": "`backups` (`schedule`): the contract's `backups` holds `schedule`, an object of `day` and `window`.",
  "POST /compute/instances/{computeId}/clone metadata": "`metadata` (`user_data`): an object, read as such.",
  "POST /compute/instances/{computeId}/rebuild metadata": "`metadata` (`user_data`): an object, read as such.",
  "PUT /profile/sshkeys/{sshKeyId} label":
    '"only the label can change": words of the rule, no type; the SSH key\'s record gives its lengths (checked from there).',
};

/** Text of `n` characters every label and password rule takes: letters and digits in no pattern (a root password's strength too). */
const text = (n: number) => Array.from({ length: n }, (_, i) => "q7Zk2Xw9PmB4vT8nR3yH6cJ5fL"[(i * 7 + Math.floor(i / 26)) % 26]).join("");

/** An issue the body's schema raises at the field, if any. */
function issueAt(b: BodyFact, value: unknown): z.core.$ZodIssue | undefined {
  const r = b.endpoint.body.safeParse({ [b.field]: value });
  return r.success ? undefined : r.error.issues.find((i) => i.path[0] === b.field);
}

describe("the spec's request fields", () => {
  test.each(bodyFacts.map((b) => [b.name, b] as const))("%s is a field of the endpoint's body, held to the spec's words", (name, b) => {
    if (REQUEST_DEPARTURES[name]) return;
    const shape = shapeOf(b.endpoint.body) ?? {};
    expect({ name, field: b.field in shape }).toEqual({ name, field: true });
    const lengths = lengthsOf(b.words);
    if (lengths) {
      const [least, most] = lengths;
      expect({ name, most: issueAt(b, text(most))?.message }).toEqual({ name, most: undefined });
      expect({ name, least: issueAt(b, text(Math.max(least, 1)))?.message }).toEqual({ name, least: undefined });
      const over = issueAt(b, text(most + 1));
      expect({ name, over: over && ruleOf(over).includes(String(most)) }).toEqual({ name, over: true });
      if (least > 0) expect({ name, under: issueAt(b, text(least - 1)) !== undefined }).toEqual({ name, under: true });
    }
    const values = /enum/.test(b.words) ? valuesOf(b.words) : [];
    for (const v of values) expect({ name, v, issue: issueAt(b, v)?.message }).toEqual({ name, v, issue: undefined });
    if (values.length) expect({ name, other: issueAt(b, "not-a-value-of-the-spec") !== undefined }).toEqual({ name, other: true });
    if (/^required|, required|\brequired\b(?! (when|only))/i.test(b.words) && !/required (when|only)/i.test(b.words))
      expect({ name, missing: issueAt(b, undefined) !== undefined }).toEqual({ name, missing: true });
    if (/^integer/.test(b.words)) expect({ name, text: issueAt(b, "12") !== undefined }).toEqual({ name, text: true });
    if (/^boolean/.test(b.words)) expect({ name, text: issueAt(b, "yes") !== undefined }).toEqual({ name, text: true });
  });

  test("every departure listed still happens (a field the contract now reads as the spec says leaves the list)", () => {
    const names = new Set(bodyFacts.map((b) => b.name));
    expect(Object.keys(REQUEST_DEPARTURES).filter((n) => !names.has(n))).toEqual([]);
  });
});
