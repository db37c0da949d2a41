import { createHmac, randomBytes, randomInt } from "node:crypto";
import { isIP } from "node:net";
import { z } from "zod";
import { refuse } from "../../api/contract/common";
import { tokenScopes } from "../../api/contract/profile";
import {
  appsApi,
  authorizedApp,
  devicesApi,
  login,
  loginsApi,
  phoneNumberApi,
  phoneNumberSend,
  preferencesApi,
  preferencesUpdate,
  SECURITY_ANSWERS,
  securityAnswer,
  SECURITY_QUESTIONS,
  securityQuestionsApi,
  trustedDevice,
  twoFactorApi,
  type AuthorizedApp,
  type SecurityQuestion,
  type TrustedDevice,
} from "../../api/contract/profile-security";
import { collectionsOf, recordField, type ApiFamily, type FamilyContext, type Refusal, type StateHolder } from "../family";
import { badRequest, notFound, paginate } from "../http";
import { rowsOf } from "../router";
import { apiTime, type User } from "../state";

const DAY_MS = 86_400_000;
/** The login history the API keeps: profile-api.md "Limits": "Login history | last 90 days". */
export const LOGIN_HISTORY_MS = 90 * DAY_MS;
/** A trusted device's remember-me session: "Trusted device session | typically 30 days". */
const DEVICE_SESSION_MS = 30 * DAY_MS;
/** A phone verification code's validity: "Phone verification code validity | 10 minutes". */
export const PHONE_CODE_MS = 10 * 60_000;
/** A two-factor secret's validity, until confirmed (the spec does not say: docs/spec-gaps.md). */
export const TFA_SECRET_MS = 10 * 60_000;
/** The address of the sign-ins the emulator records: a documentation address, never a real host. */
const SIGN_IN_ADDRESS = "192.0.2.1";

/** An address a sign-in came from: profile-api.md "Login": "ip | string, IP" (IPv4 or IPv6). */
const ipAddress = z.string().refine((v) => isIP(v) !== 0, "Must be an IP address");

/** A login as the state keeps it: the API's record (which names its user), from an address. */
export const storedLogin = login.extend({ ip: ipAddress }).strict();
/** An authorized app as the state keeps it: the API's record (its scopes a scopes string: api/scopes.ts) and its user. */
export const storedApp = authorizedApp.extend({ scopes: tokenScopes, username: z.string() }).strict();
/** A trusted device as the state keeps it: the API's record (its last address an address) and its user. */
export const storedDevice = trustedDevice.extend({ last_remote_addr: ipAddress, username: z.string() }).strict();

/** Whether `id` (a key of the answers) is a question's: `1` to `19`, as the answer request's `question_id`. */
const isQuestion = (id: string): boolean => /^[1-9][0-9]*$/.test(id) && Number(id) <= SECURITY_QUESTIONS.length;

/**
 * A user's answers by question id, as the answer request leaves them: none, or the three of the last request
 * ("previous answers are overwritten, or reset to null if unanswered"), each to a question of the list and 1 to 255
 * characters. The keys are read as given (a `__proto__` key too, which a record's schema would pass over).
 */
const storedAnswers = z
  .custom<unknown>()
  .check(
    z.superRefine((raw, ctx) => {
      const ids = typeof raw === "object" && raw !== null ? Object.keys(raw) : [];
      for (const id of ids)
        if (!isQuestion(id)) refuse(ctx, `No security question ${id}: the questions are 1 to ${SECURITY_QUESTIONS.length}`, undefined, [id]);
    }),
  )
  .pipe(
    z.record(z.string(), securityAnswer.shape.response).check(
      z.superRefine((answers, ctx) => {
        const n = Object.keys(answers).length;
        if (n !== 0 && n !== SECURITY_ANSWERS) refuse(ctx, `Answers are none or exactly ${SECURITY_ANSWERS} (got ${n})`);
      }),
    ),
  );

/** A two-factor secret as the emulator issues it: 16 base32 characters (10 random bytes). */
const BASE32_SECRET = /^[A-Z2-7]{16}$/;

/**
 * What a user set that the profile record does not show: preferences (at most 65,535 characters as JSON, as the
 * PUT takes them), answers, codes under way (a phone number as the request takes it, upper-case country code, a
 * 6-digit code; a base32 secret).
 */
export const storedSettings = z.strictObject({
  username: z.string(),
  preferences: preferencesUpdate,
  /** Answers by question id. */
  answers: storedAnswers,
  /** A code sent to a number, until it expires (ms). */
  phone: z
    .strictObject({
      iso_code: z.string().regex(/^[A-Z]{2}$/, "Must be a two-letter ISO 3166 country code, upper-case"),
      phone_number: phoneNumberSend.shape.phone_number,
      code: z.string().regex(/^\d{6}$/, "Must be a 6-digit code"),
      expires: z.number(),
    })
    .optional(),
  /** A two-factor secret issued and not yet confirmed (base32), until it expires (ms). */
  tfa: z.strictObject({ secret: z.string().regex(BASE32_SECRET, "Must be 16 base32 characters"), expires: z.number() }).optional(),
});

export type LoginRecord = z.output<typeof storedLogin>;
export type AppRecord = z.output<typeof storedApp>;
export type DeviceRecord = z.output<typeof storedDevice>;
export type ProfileSettingsRecord = z.output<typeof storedSettings>;

export const profileSecurityState = collectionsOf({
  logins: storedLogin,
  authorizedApps: storedApp,
  trustedDevices: storedDevice,
  profileSettings: storedSettings,
});
export type ProfileSecurityState = ReturnType<typeof profileSecurityState>;

/**
 * Each record's `username` is a user of the account (a record of no user would be no one's to list or revoke); a
 * user has one settings record (the routes read the first: a second would never be).
 */
function references(state: StateHolder): Refusal[] {
  const users = new Set(state.data.users.map((u) => u.username));
  const d = profileSecurityState(state);
  const collections: Array<[string, ReadonlyArray<{ username: string }>]> = [
    ["logins", d.logins],
    ["authorizedApps", d.authorizedApps],
    ["trustedDevices", d.trustedDevices],
    ["profileSettings", d.profileSettings],
  ];
  const refusals = collections.flatMap(([name, records]) =>
    records.flatMap((r, i) => (users.has(r.username) ? [] : [{ field: recordField(name, i, "username"), reason: `no user ${r.username} in the account` }])),
  );
  const settled = new Set<string>();
  d.profileSettings.forEach((s, i) => {
    if (settled.has(s.username)) refusals.push({ field: recordField("profileSettings", i, "username"), reason: `user ${s.username} has settings already` });
    settled.add(s.username);
  });
  return refusals;
}

/**
 * The profile's sign-in and security family: login history, authorized apps, trusted devices, phone
 * verification, preferences, security questions and two-factor authentication (`/profile/...`).
 */
export const profileSecurityFamily: ApiFamily<ProfileSecurityState> = {
  name: "profile-security",
  state: profileSecurityState,
  register: (family) => family.router.serve(ROWS, securityContext(family)),
  references,
  renumber: (state, to) => {
    const d = profileSecurityState(state);
    for (const login of d.logins) login.id = to("login", login.id);
    for (const device of d.trustedDevices) device.id = to("device", device.id);
    for (const app of d.authorizedApps) app.id = to("app", app.id);
  },
};

type SecurityContext = ReturnType<typeof securityContext>;

function securityContext({ store, now, baseUrl }: FamilyContext) {
  return { store, now, baseUrl, d: profileSecurityState(store) };
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const base32 = (bytes: Buffer) => {
  let bits = "";
  for (const b of bytes) bits += b.toString(2).padStart(8, "0");
  return (bits.match(/.{1,5}/g) ?? []).map((c) => BASE32[parseInt(c.padEnd(5, "0"), 2)]).join("");
};
const unbase32 = (text: string) => {
  const bits = [...text].map((c) => BASE32.indexOf(c).toString(2).padStart(5, "0")).join("");
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
};

/** The time-based code (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) of a base32 secret at a time. */
export function totp(secret: string, ms: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac("sha1", unbase32(secret)).update(counter).digest();
  const at = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** An app as the API shows it (no `username`). */
const appView = ({ username: _u, ...app }: AppRecord): AuthorizedApp => app;
/** A device as the API shows it (no `username`). */
const deviceView = ({ username: _u, ...device }: DeviceRecord): TrustedDevice => device;

/**
 * The caller. The emulator has no sign-in: a user's first sign-in is the one that made its first token. When a
 * user is first seen here, it gets that login, the remembered browser of that sign-in (a trusted device) and the
 * sign-in's OAuth client (an authorized app), all dated when that token was made.
 */
function me({ store, now, baseUrl, d }: SecurityContext, user: User): User {
  if (d.logins.some((l) => l.username === user.username)) return user;
  const made = store.data.tokens.filter((t) => t.username === user.username).map((t) => Date.parse(`${t.created}Z`));
  const at = made.length ? Math.min(...made) : now();
  const when = apiTime(at);
  const { username, restricted } = user;
  d.logins.push({ id: store.nextId("login"), datetime: when, ip: SIGN_IN_ADDRESS, restricted, status: "successful", username });
  d.trustedDevices.push({
    id: store.nextId("device"),
    created: when,
    expiry: apiTime(at + DEVICE_SESSION_MS),
    last_authenticated: when,
    last_remote_addr: SIGN_IN_ADDRESS,
    user_agent: "Mozilla/5.0 (X11; Linux x86_64) compute-emulator",
    username,
  });
  d.authorizedApps.push({
    id: store.nextId("app"),
    label: "Emulator sign-in",
    scopes: "*",
    created: when,
    expiry: null,
    thumbnail_url: null,
    website: baseUrl(),
    username,
  });
  return user;
}

/** The caller's settings (made empty when first asked for). */
function settings(c: SecurityContext, caller: User): ProfileSettingsRecord {
  const user = me(c, caller);
  let s = c.d.profileSettings.find((x) => x.username === user.username);
  if (!s) {
    s = { username: user.username, preferences: {}, answers: {} };
    c.d.profileSettings.push(s);
  }
  return s;
}

/** The caller's record `id` among `records`, or 404. */
function own<T extends { id: number; username: string }>(c: SecurityContext, records: readonly T[], user: User, id: number): T {
  const found = mine(c, records, user).find((x) => x.id === id);
  if (!found) throw notFound();
  return found;
}

/** The caller's records of a collection. */
const mine = <T extends { username: string }>(c: SecurityContext, records: readonly T[], user: User): T[] => {
  const { username } = me(c, user);
  return records.filter((x) => x.username === username);
};

/** The caller's logins of the last 90 days. */
const recentLogins = (c: SecurityContext, user: User) => mine(c, c.d.logins, user).filter((l) => Date.parse(`${l.datetime}Z`) > c.now() - LOGIN_HISTORY_MS);

/** The caller's devices whose session has not ended. */
const liveDevices = (c: SecurityContext, user: User) => mine(c, c.d.trustedDevices, user).filter((x) => Date.parse(`${x.expiry}Z`) > c.now());

/** Every question with the user's answer, or null. */
const questionView = (s: ProfileSettingsRecord, id: number): SecurityQuestion => ({
  id,
  question: SECURITY_QUESTIONS[id - 1],
  response: s.answers[id] ?? null,
});

const row = rowsOf<SecurityContext>();

const accountRows = [
  row(loginsApi.list, (c, req) => paginate(recentLogins(c, req.user), req)),
  row(loginsApi.get, (c, { user, params }) => own(c, recentLogins(c, user), user, params.loginId)),
  row(appsApi.list, (c, req) => paginate(mine(c, c.d.authorizedApps, req.user).map(appView), req)),
  row(appsApi.get, (c, { user, params }) => appView(own(c, c.d.authorizedApps, user, params.appId))),
  row(appsApi.delete, (c, { user, params }) => {
    const app = own(c, c.d.authorizedApps, user, params.appId);
    c.d.authorizedApps = c.d.authorizedApps.filter((a) => a !== app);
    return {};
  }),
  row(devicesApi.list, (c, req) => paginate(liveDevices(c, req.user).map(deviceView), req)),
  row(devicesApi.get, (c, { user, params }) => deviceView(own(c, liveDevices(c, user), user, params.deviceId))),
  row(devicesApi.delete, (c, { user, params }) => {
    const found = own(c, liveDevices(c, user), user, params.deviceId);
    c.d.trustedDevices = c.d.trustedDevices.filter((x) => x !== found);
    return {};
  }),
];

// Phone verification: a code valid 10 minutes (sent by SMS: here only kept), then the number is verified.
const phoneRows = [
  row(phoneNumberApi.send, (c, { user, body }) => {
    const s = settings(c, user);
    if (user.verified_phone_number) throw badRequest("A phone number is already verified: delete it first", "phone_number");
    const iso_code = body.iso_code.toUpperCase();
    const { phone_number } = body;
    const same = s.phone && s.phone.expires > c.now() && s.phone.iso_code === iso_code && s.phone.phone_number === phone_number;
    // A repeated request before the code expires sends the same code again.
    if (!same) s.phone = { iso_code, phone_number, code: String(randomInt(0, 1_000_000)).padStart(6, "0"), expires: c.now() + PHONE_CODE_MS };
    return {};
  }),
  row(phoneNumberApi.verify, (c, { user, body }) => {
    const s = settings(c, user);
    if (!s.phone || s.phone.expires <= c.now()) throw badRequest("No verification code is pending: request a new one", "otp_code");
    if (body.otp_code !== s.phone.code) throw badRequest("Invalid verification code", "otp_code");
    user.verified_phone_number = s.phone.phone_number;
    delete s.phone;
    return {};
  }),
  row(phoneNumberApi.delete, (c, { user }) => {
    me(c, user);
    if (!user.verified_phone_number) throw badRequest("No phone number is verified");
    user.verified_phone_number = null;
    return {};
  }),
];

// Preferences (any JSON object, replaced whole), security questions (an answer sets exactly three) and two-factor
// authentication (a secret, after the security questions, confirmed with a current code).
const settingsRows = [
  row(preferencesApi.get, (c, { user }) => settings(c, user).preferences),
  row(preferencesApi.update, (c, { user, body }) => {
    const s = settings(c, user);
    s.preferences = body;
    return s.preferences;
  }),
  row(securityQuestionsApi.list, (c, { user }) => {
    const s = settings(c, user);
    return { security_questions: SECURITY_QUESTIONS.map((_, i) => questionView(s, i + 1)) };
  }),
  row(securityQuestionsApi.answer, (c, { user, body }) => {
    const s = settings(c, user);
    // Earlier answers are overwritten; questions not answered now are reset.
    s.answers = Object.fromEntries(body.security_questions.map((q) => [q.question_id, q.response]));
    return { security_questions: Object.keys(s.answers).map((id) => questionView(s, Number(id))) };
  }),
  row(twoFactorApi.enable, (c, { user }) => {
    const s = settings(c, user);
    if (Object.keys(s.answers).length < 3) throw badRequest("Answer the security questions before enabling two-factor authentication");
    if (user.two_factor_auth) throw badRequest("Two-factor authentication is already enabled");
    const tfa = { secret: base32(randomBytes(10)), expires: c.now() + TFA_SECRET_MS };
    s.tfa = tfa;
    return { secret: tfa.secret, expiry: apiTime(tfa.expires) };
  }),
  row(twoFactorApi.confirm, (c, { user, body }) => {
    const s = settings(c, user);
    const { tfa } = s;
    if (!tfa || tfa.expires <= c.now()) throw badRequest("No two-factor secret is pending: create one first", "tfa_code");
    // The current code, or the one of the step before or after (a clock a little off).
    const t = c.now();
    if (![t - 30_000, t, t + 30_000].some((at) => totp(tfa.secret, at) === body.tfa_code)) throw badRequest("Invalid code", "tfa_code");
    user.two_factor_auth = true;
    delete s.tfa;
    return { scratch: base32(randomBytes(10)) };
  }),
  row(twoFactorApi.disable, (c, { user }) => {
    user.two_factor_auth = false;
    delete settings(c, user).tfa;
    return {};
  }),
];

const ROWS = [...accountRows, ...phoneRows, ...settingsRows];
