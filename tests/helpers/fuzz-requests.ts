/**
 * The requests of the emulator's fuzzing suite (tests/integration/emulator-fuzz.property.test.ts): an endpoint
 * of the spec, its body (the endpoint's accepted body nearly right, fields of the API with good and hostile
 * values, any JSON, or no JSON at all), an odd path segment, paging, an X-Filter and a caller.
 */
import fc from "fast-check";
import { ed25519Key } from "./emulator";
import type { Endpoint } from "./spec-endpoints";

/** Text that trips parsers and checks: control characters, bidirectional controls, lone surrogates, long runs. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ maxLength: 12, unit: "grapheme" }),
  fc.constantFrom("", " ", "\u0000", "a\u001bb", "x\u202Ey", "\ud800", "%00", "../..", "${x}", "'; DROP TABLE x;--", "null", "1e309"),
  fc.integer({ min: 65, max: 400 }).map((n) => "a".repeat(n)),
);
const hostileNumber = fc.oneof(fc.integer(), fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308));
/** Any value at all, as JSON can say it, nested a little, with the values above mixed in. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: hostileText },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [{}], [[]], { id: null }) },
  { weight: 1, arbitrary: fc.constantFrom(60, 70).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown) },
);

/** Values that are good for the field, so that some writes are accepted and the state moves. */
function goodValues(ids: Record<string, string>): Record<string, fc.Arbitrary<unknown>> {
  const num = (name: string) => fc.constant(Number(ids[name]));
  return {
    label: fc.stringMatching(/^[a-z][a-z0-9-]{2,12}[a-z0-9]$/).filter((s) => !s.includes("--")),
    region: fc.constantFrom("us-east", "eu-west", "nowhere"),
    type: fc.constantFrom("c1-standard-2", "c1-standard-4", "g6-nanode-1"),
    image: fc.constantFrom("compute/debian12", "compute/ubuntu24.04", `private/${ids.imageId}`),
    root_pass: fc.constantFrom("Str0ng-Passw0rd!", "weak", "Another-G00d-One"),
    password: fc.constantFrom("Str0ng-Passw0rd!", "x"),
    ssh_key: fc.integer({ min: 100, max: 100_000 }).map((n) => ed25519Key(n)),
    authorized_keys: fc.integer({ min: 100, max: 100_000 }).map((n) => [ed25519Key(n)]),
    scopes: fc.constantFrom("*", "computes:read_only", "vpc:read_write account:read_only", "nope:read"),
    expiry: fc.constantFrom("2027-01-01T00:00:00", "yesterday"),
    tags: fc.array(fc.stringMatching(/^[a-z]{3,8}$/), { maxLength: 3 }),
    subnets: fc.constantFrom(
      [],
      [{ label: "s-2", ipv4: "10.1.0.0/24" }],
      [
        { label: "s", ipv4: "10.0.0.0/24" },
        { label: "s", ipv4: "10.0.0.0/24" },
      ],
    ),
    ipv4: fc.constantFrom("10.2.0.0/24", "10.0.0.0/24", "8.8.8.0/24", "10.3.0.0/30"),
    purpose: fc.constantFrom("public", "vpc", "vlan"),
    subnet_id: num("vpcSubnetId"),
    vpc_id: num("vpcId"),
    ipam_address: fc.constantFrom("10.0.0.5/24", "bad"),
    primary: fc.boolean(),
    ids: fc.constant([Number(ids.interfaceId)]),
    devices: fc.constant({ sda: { disk_id: Number(ids.diskId) } }),
    kernel: fc.constantFrom("compute/latest-64bit", "compute/grub2", "nope"),
    interfaces: fc.constantFrom([], [{ purpose: "public" }], [{ purpose: "vpc", subnet_id: Number(ids.vpcSubnetId) }]),
    disk_id: num("diskId"),
    size: fc.constantFrom(1024, 25_000, 0, 10_000_000),
    filesystem: fc.constantFrom("ext4", "swap", "fat"),
    backups_enabled: fc.boolean(),
    backup_id: num("computeBackupId"),
    linode_id: num("computeId"),
    compute_id: num("computeId"),
    overwrite: fc.boolean(),
    engine: fc.constantFrom(ids.engineId, "mysql/8.0", "oracle/1"),
    cluster_size: fc.constantFrom(1, 2, 3),
    allow_list: fc.constantFrom([], ["203.0.113.0/24"], ["not-an-ip"]),
    description: hostileText,
    email: fc.constantFrom("user@example.com", "not-an-email"),
    timezone: fc.constantFrom("UTC", "Europe/Paris", "Mars/Olympus"),
    restricted: fc.boolean(),
    iso_code: fc.constantFrom("US", "ZZ"),
    phone_number: fc.constantFrom("555-123-4567", "x"),
    otp_code: fc.constantFrom("123456", "abc"),
    tfa_code: fc.constantFrom("123456", ""),
    security_questions: fc.constant([
      { question_id: 1, response: "a" },
      { question_id: 2, response: "b" },
      { question_id: 3, response: "c" },
    ]),
  };
}

/**
 * A body each write of the spec accepts (its required fields, from the spec's tables), which the requests
 * take as they are, or with one field changed, dropped or added: most of what a real client sends is
 * nearly right.
 */
function acceptedBodies(ids: Record<string, string>): Record<string, Record<string, unknown>> {
  const I = "/compute/instances/{computeId}";
  const M = "/databases/mysql/instances";
  const pass = "Str0ng-Passw0rd!";
  return {
    "POST /compute/instances": { label: "fuzz-web", region: "us-east", type: "c1-standard-2", image: "compute/debian12", root_pass: pass },
    [`PUT ${I}`]: { label: "fuzz-renamed", tags: ["a"] },
    [`POST ${I}/clone`]: { region: "us-east", type: "c1-standard-2", label: "fuzz-clone" },
    [`POST ${I}/rebuild`]: { image: "compute/debian12", root_pass: pass },
    [`POST ${I}/rescue`]: { devices: { sda: { disk_id: Number(ids.diskId) } } },
    [`POST ${I}/resize`]: { type: "c1-standard-4" },
    [`POST ${I}/mutate`]: { allow_auto_disk_resize: true },
    [`POST ${I}/password`]: { root_pass: pass },
    [`POST ${I}/backups`]: { label: "fuzz-snap" },
    [`POST ${I}/backups/{backupId}/restore`]: { compute_id: Number(ids.computeId), overwrite: true },
    [`POST ${I}/configs`]: { label: "fuzz-config", devices: { sda: { disk_id: Number(ids.diskId) } } },
    [`PUT ${I}/configs/{configId}`]: { label: "fuzz-config-2", comments: "changed" },
    [`POST ${I}/configs/{configId}/interfaces`]: { purpose: "public" },
    [`POST ${I}/configs/{configId}/interfaces/order`]: { ids: [Number(ids.interfaceId)] },
    [`PUT ${I}/configs/{configId}/interfaces/{interfaceId}`]: { primary: true },
    [`POST ${I}/disks`]: { label: "fuzz-disk", size: 1024, filesystem: "ext4" },
    "POST /images": { disk_id: Number(ids.diskId), label: "fuzz-image" },
    "POST /images/upload": { label: "fuzz-upload", region: "us-east" },
    "PUT /images/{imageId}": { label: "fuzz-image-2", description: "changed" },
    "POST /vpcs": { label: "fuzz-vpc", region: "us-east", subnets: [{ label: "fuzz-sub", ipv4: "10.5.0.0/24" }] },
    "PUT /vpcs/{vpcId}": { label: "fuzz-vpc-2", description: "changed" },
    "POST /vpcs/{vpcId}/subnets": { label: "fuzz-sub-2", ipv4: "10.0.1.0/24" },
    "PUT /vpcs/{vpcId}/subnets/{vpcSubnetId}": { label: "fuzz-sub-3" },
    [`POST ${M}`]: { label: "fuzz-mysql", engine: ids.engineId, region: "us-east", type: "c1-standard-2" },
    [`PUT ${M}/{instanceId}`]: { label: "fuzz-mysql-2", allow_list: ["203.0.113.0/24"] },
    [`POST ${M}/{instanceId}/backups`]: { label: "fuzz-db-snap" },
    "POST /databases/postgresql/instances": { label: "fuzz-pg", engine: ids.pgEngineId, region: "us-east", type: "c1-standard-2" },
    "PUT /profile": { email: "fuzz@example.com", timezone: "UTC" },
    "POST /profile/phone-number": { iso_code: "US", phone_number: "555-123-4567" },
    "POST /profile/phone-number/verify": { otp_code: "123456" },
    "PUT /profile/preferences": { theme: "dark" },
    "POST /profile/security-questions": { security_questions: [1, 2, 3].map((id) => ({ question_id: id, response: `answer ${id}` })) },
    "POST /profile/sshkeys": { label: "fuzz-key", ssh_key: ed25519Key(77) },
    "PUT /profile/sshkeys/{sshKeyId}": { label: "fuzz-key-2" },
    "POST /profile/tfa-enable-confirm": { tfa_code: "123456" },
    "POST /profile/tokens": { label: "fuzz-token", scopes: "*" },
    "PUT /profile/tokens/{tokenId}": { label: "fuzz-token-2" },
  };
}

export interface FuzzRequest {
  endpoint: Endpoint;
  /** A path parameter to replace with an odd segment, and the segment. */
  oddSegment?: string;
  query: string;
  filter?: string;
  caller: "root" | "readOnly" | "madeUp" | "none";
  body: { kind: "json"; value: unknown } | { kind: "raw"; text: string; contentType: string } | { kind: "none" };
}

/** A query value escaped; a lone surrogate, which has no UTF-8, as the bytes of one (WTF-8): a malformed escape, on purpose. */
const escape = (text: string): string =>
  Array.from(text, (ch) => {
    const code = ch.charCodeAt(0);
    return code >= 0xd800 && code <= 0xdfff && ch.length === 1
      ? `%ED%${(0xa0 + ((code >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (code & 0x3f)).toString(16).toUpperCase()}`
      : encodeURIComponent(ch);
  }).join("");

export function fuzzRequest(endpoints: Endpoint[], ids: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const good = goodValues(ids);
  const names = Object.keys(good);
  const fields = fc
    .uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 6 })
    .chain((keys) =>
      fc
        .tuple(...keys.map((k) => fc.oneof({ weight: 3, arbitrary: good[k] }, { weight: 1, arbitrary: hostileValue })))
        .map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]]))),
    );
  const body = fc.oneof(
    { weight: 8, arbitrary: fields.map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: hostileValue.map((value) => ({ kind: "json" as const, value })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("{", "[1,", "\u0000", "not json", "{}").map((text) => ({ kind: "raw" as const, text, contentType: "application/json" })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "raw" as const, text: "{}", contentType: "text/plain" }) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  );
  const paging = fc.oneof(
    { weight: 6, arbitrary: fc.constant("") },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.oneof(hostileNumber, hostileText), fc.oneof(hostileNumber, hostileText))
        .map(([p, s]) => `?page=${escape(String(p))}&page_size=${escape(String(s))}`),
    },
  );
  const filter = fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"label": "vpc-1"}',
        '{"+or": [{"label": "a"}, {"region": "us-east"}]}',
        '{"+order_by": "nope"}',
        "{",
        '{"label": {"+contains": 5}}',
      ),
    },
  );
  const accepted = acceptedBodies(ids);
  /** The endpoint's accepted body, as is, with a field changed (to a good or a hostile value), dropped or added. */
  const nearlyRight = (base: Record<string, unknown>) =>
    fc.oneof(
      fc.constant(base),
      fc
        .tuple(fc.constantFrom(...Object.keys(base)), fc.oneof(...Object.keys(base).map((k) => good[k] ?? hostileValue), hostileValue))
        .map(([k, v]) => ({ ...base, [k]: v })),
      fc.constantFrom(...Object.keys(base)).map((k) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== k))),
      fc.tuple(fc.constantFrom(...names), fc.oneof(...names.map((k) => good[k]), hostileValue)).map(([k, v]) => ({ ...base, [k]: v })),
    );
  const endpointBody = (e: Endpoint) => {
    const base = accepted[`${e.method} ${e.path}`];
    if (!base) return body;
    return fc.oneof({ weight: 3, arbitrary: nearlyRight(base).map((value) => ({ kind: "json" as const, value })) }, { weight: 1, arbitrary: body });
  };
  return fc.constantFrom(...endpoints).chain((endpoint) =>
    fc.record({
      endpoint: fc.constant(endpoint),
      oddSegment: fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("0", "-1", "99999999999999999999", "1.5", "abc", "%00", "%E0%A4%A", "%2F", "%20", "1e3") },
      ),
      query: paging,
      filter,
      caller: fc.oneof(
        { weight: 8, arbitrary: fc.constant("root" as const) },
        { weight: 1, arbitrary: fc.constantFrom("readOnly" as const, "madeUp" as const, "none" as const) },
      ),
      body: endpointBody(endpoint),
    }),
  );
}
