/**
 * What the drift report never prints: a secret's value. The engine's JSON shows a value it knows is secret as
 * "[secret]" (or, in an event stream, as a secret's envelope with "[secret]" for its ciphertext); a value a
 * provider did not mark secret comes as it is. So a field is redacted by its name too: the fields schema.json
 * marks `secret: true` (tests/unit/drift-report.test.ts holds this list to it), and, for any resource of any
 * provider, a field named like a secret.
 */
import { computeKind } from "../cost/words";

/** The fields schema.json marks secret, by resource (the plugin's type `compute:index:<Kind>`, or a dynamic class's `.../compute:<Kind>`). */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  DatabaseForServers: ["password", "username"],
  Disk: ["rootPass", "scriptData"],
  Instance: ["metadata", "rootPass", "scriptData"],
  MysqlDatabase: ["caCertificate", "password", "username"],
  PostgresDatabase: ["caCertificate", "password", "username"],
  ServerInVpc: ["rootPass"],
  Token: ["token"],
};

/** Names that hold a secret whatever the resource (compared lowercased, without `_` and `-`): they end so. */
const SECRET_ENDINGS = [
  "password",
  "passwd",
  "pass",
  "secret",
  "token",
  "privatekey",
  "apikey",
  "credentials",
  "userdata",
  "scriptdata",
  "cacertificate",
  "passphrase",
  "hash",
];
/** ... or hold one of these anywhere (`connectionString`, `credentialsJson`, `privateKeyPem`, `passwordHash`). */
const SECRET_PARTS = ["password", "passphrase", "secret", "privatekey", "credential", "connectionstring", "apikey"];

/** Pulumi's signature of a secret value, as a state (and an event stream) spells it. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";

export const SECRET_TEXT = "[secret]";

/** Whether a field's name reads as a secret's, whatever its resource. */
export function secretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[_-]/g, "");
  return SECRET_ENDINGS.some((e) => n.endsWith(e)) || SECRET_PARTS.some((p) => n.includes(p));
}

/** Whether the field at `segments` (a property path's names and indexes) of a resource of `type` is secret. */
export function secretPath(type: string, segments: ReadonlyArray<string | number>): boolean {
  const kind = computeKind(type);
  const first = segments[0];
  if (kind && typeof first === "string" && SECRET_FIELDS[kind]?.includes(first)) return true;
  return segments.some((s) => typeof s === "string" && secretName(s));
}

/** Whether a value is a secret as the engine writes one: "[secret]", or a secret's envelope. */
export function isSecretValue(v: unknown): boolean {
  if (v === SECRET_TEXT) return true;
  return typeof v === "object" && v !== null && SECRET_SIG in v && v[SECRET_SIG] === SECRET_SIG_VALUE;
}

/**
 * A value as the report may show it: a secret (an envelope, or a field named like a secret inside it) becomes
 * "[secret]"; the rest is kept.
 */
export function redactValue(v: unknown): unknown {
  if (isSecretValue(v)) return SECRET_TEXT;
  if (Array.isArray(v)) return v.map(redactValue);
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === undefined || x === null ? x : secretName(k) ? SECRET_TEXT : redactValue(x)]));
  }
  return v;
}
