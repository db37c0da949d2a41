import { createHmac, randomBytes, randomInt } from "node:crypto";
import { z } from "zod";
import { readFields } from "../body";
import { collections, type ApiFamily, type FamilyContext } from "../family";
import { FieldErrors, badRequest, jsonObject, notFound, paginate } from "../http";
import { type SignedInContext } from "../router";
import { apiTime, type User } from "../state";
import { LENGTH_LIMITS } from "../../api/text";

const ro = { group: "account", level: "read_only" } as const;
const rw = { group: "account", level: "read_write" } as const;
const auth = { ro: { scope: ro, auth: "required" }, rw: { scope: rw, auth: "required" } } as const;

const DAY_MS = 86_400_000;
/** The login history the API keeps. */
export const LOGIN_HISTORY_MS = 90 * DAY_MS;
/** A trusted device's remember-me session. */
const DEVICE_SESSION_MS = 30 * DAY_MS;
/** A phone verification code's validity. */
export const PHONE_CODE_MS = 10 * 60_000;
/** A two-factor secret's validity, until confirmed (the spec does not say: docs/spec-gaps.md). */
export const TFA_SECRET_MS = 10 * 60_000;
/** The address of the sign-ins the emulator records: a documentation address, never a real host. */
const SIGN_IN_ADDRESS = "192.0.2.1";
const MAX_PREFERENCES = LENGTH_LIMITS.preferences[1];

/** A phone number to verify: its country and number. */
const PHONE_FIELDS = {
  iso_code: z.string({ error: "Must be a two-letter ISO 3166 country code" }).regex(/^[A-Za-z]{2}$/, "Must be a two-letter ISO 3166 country code"),
  phone_number: z.string({ error: "Must be a phone number" }).regex(/^\+?[0-9][0-9 ()-]{3,19}$/, "Must be a phone number"),
};

/** The security questions a user can answer, as the real API lists them (TestSecurityQuestions_List). */
export const SECURITY_QUESTIONS = [
  "What was the name of your first pet?",
  "What is the name of your oldest sibling?",
  "What was the first concert you attended?",
  "What was the make and model of your first car?",
  "In what city or town did your parents meet?",
  "What is the name of a college you applied to but did not attend?",
  "Where did you go on your most memorable school field trip?",
  "What is the name of the teacher who impacted you the most?",
  "Which city did you visit on your first airplane flight?",
  "On what street did your best friend in high school live?",
  "What is the name of your favorite city?",
  "What is your favorite artist of all time?",
  "What is the maiden name of your grandmother?",
  "What is the name of your first roommate?",
  "In what city or town was your first job?",
  "Who is your favorite author?",
  "What is the name of the hospital you were born in?",
  "What sports team do you love to see lose?",
  "On what street is your grocery store?",
];

export interface LoginRecord {
  id: number;
  datetime: string;
  ip: string;
  restricted: boolean;
  status: "successful" | "failed";
  username: string;
}

export interface AppRecord {
  id: number;
  label: string;
  scopes: string;
  created: string;
  expiry: string | null;
  thumbnail_url: string | null;
  website: string;
  username: string;
}

export interface DeviceRecord {
  id: number;
  created: string;
  expiry: string;
  last_authenticated: string;
  last_remote_addr: string;
  user_agent: string;
  username: string;
}

/** What a user set that the profile record does not show: answers, preferences, codes under way. */
export interface ProfileSettingsRecord {
  username: string;
  preferences: Record<string, unknown>;
  /** Answers by question id. */
  answers: Record<string, string>;
  phone?: { iso_code: string; phone_number: string; code: string; expires: number };
  /** A two-factor secret issued and not yet confirmed (base32). */
  tfa?: { secret: string; expires: number };
}

export interface ProfileSecurityState {
  logins: LoginRecord[];
  authorizedApps: AppRecord[];
  trustedDevices: DeviceRecord[];
  profileSettings: ProfileSettingsRecord[];
}

export const profileSecurityState = collections<ProfileSecurityState>({ logins: [], authorizedApps: [], trustedDevices: [], profileSettings: [] });

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

/** A record as the API shows it (a login keeps its `username`; apps and devices do not show one). */
const withoutUser = <T extends { username: string }>(r: T) => {
  const { username: _u, ...rest } = r;
  return rest;
};

/**
 * The profile's sign-in and security family: login history, authorized apps, trusted devices, phone
 * verification, preferences, security questions and two-factor authentication (`/profile/...`).
 */
export const profileSecurityFamily: ApiFamily<ProfileSecurityState> = {
  name: "profile-security",
  state: profileSecurityState,
  register: registerProfileSecurityRoutes,
};

function registerProfileSecurityRoutes({ router, store, now, baseUrl }: FamilyContext): void {
  const d = profileSecurityState(store);

  /**
   * The emulator has no sign-in: a user's first sign-in is the one that made its first token. When a user
   * is first seen here, it gets that login, the remembered browser of that sign-in (a trusted device) and
   * the sign-in's OAuth client (an authorized app), all dated when that token was made.
   */
  const me = (ctx: SignedInContext): User => {
    const user = ctx.user;
    if (!d.logins.some((l) => l.username === user.username)) {
      const made = store.data.tokens.filter((t) => t.username === user.username).map((t) => Date.parse(`${t.created}Z`));
      const at = made.length ? Math.min(...made) : now();
      const when = apiTime(at);
      d.logins.push({
        id: store.nextId("login"),
        datetime: when,
        ip: SIGN_IN_ADDRESS,
        restricted: user.restricted,
        status: "successful",
        username: user.username,
      });
      d.trustedDevices.push({
        id: store.nextId("device"),
        created: when,
        expiry: apiTime(at + DEVICE_SESSION_MS),
        last_authenticated: when,
        last_remote_addr: SIGN_IN_ADDRESS,
        user_agent: "Mozilla/5.0 (X11; Linux x86_64) compute-emulator",
        username: user.username,
      });
      d.authorizedApps.push({
        id: store.nextId("app"),
        label: "Emulator sign-in",
        scopes: "*",
        created: when,
        expiry: null,
        thumbnail_url: null,
        website: baseUrl(),
        username: user.username,
      });
    }
    return user;
  };
  const settings = (user: User): ProfileSettingsRecord => {
    let s = d.profileSettings.find((x) => x.username === user.username);
    if (!s) {
      s = { username: user.username, preferences: {}, answers: {} };
      d.profileSettings.push(s);
    }
    return s;
  };
  const byId = <T extends { id: number; username: string }>(items: T[], ctx: SignedInContext, param: string): T => {
    const user = me(ctx);
    const found = items.find((x) => String(x.id) === ctx.params[param] && x.username === user.username);
    if (!found) throw notFound();
    return found;
  };

  // Logins of the last 90 days.
  const recentLogins = (ctx: SignedInContext) => {
    const user = me(ctx);
    return d.logins.filter((l) => l.username === user.username && Date.parse(`${l.datetime}Z`) > now() - LOGIN_HISTORY_MS);
  };
  router.add("GET", "/profile/logins", auth.ro, (ctx) => paginate(recentLogins(ctx), ctx));
  router.add(
    "GET",
    "/profile/logins/{loginId}",
    auth.ro,
    (ctx) => recentLogins(ctx).find((l) => String(l.id) === ctx.params.loginId) ?? Promise.reject(notFound()),
  );

  // Authorized apps and trusted devices: read and revoke.
  const appView = (a: AppRecord) => withoutUser(a);
  router.add("GET", "/profile/apps", auth.ro, (ctx) => {
    const user = me(ctx);
    return paginate(d.authorizedApps.filter((a) => a.username === user.username).map(appView), ctx);
  });
  router.add("GET", "/profile/apps/{appId}", auth.ro, (ctx) => appView(byId(d.authorizedApps, ctx, "appId")));
  router.add("DELETE", "/profile/apps/{appId}", auth.rw, (ctx) => {
    const app = byId(d.authorizedApps, ctx, "appId");
    d.authorizedApps = d.authorizedApps.filter((a) => a !== app);
    return {};
  });
  const liveDevices = (ctx: SignedInContext) => {
    const user = me(ctx);
    return d.trustedDevices.filter((x) => x.username === user.username && Date.parse(`${x.expiry}Z`) > now());
  };
  const deviceView = (x: DeviceRecord) => withoutUser(x);
  router.add("GET", "/profile/devices", auth.ro, (ctx) => paginate(liveDevices(ctx).map(deviceView), ctx));
  const device = (ctx: SignedInContext) => liveDevices(ctx).find((x) => String(x.id) === ctx.params.deviceId) ?? Promise.reject(notFound());
  router.add("GET", "/profile/devices/{deviceId}", auth.ro, async (ctx) => deviceView(await device(ctx)));
  router.add("DELETE", "/profile/devices/{deviceId}", auth.rw, async (ctx) => {
    const found = await device(ctx);
    d.trustedDevices = d.trustedDevices.filter((x) => x !== found);
    return {};
  });

  // Phone verification: a code valid 10 minutes (sent by SMS: here only kept), then the number is verified.
  router.add("POST", "/profile/phone-number", auth.rw, (ctx) => {
    const body = jsonObject(ctx);
    const user = me(ctx);
    const errors = new FieldErrors();
    const { iso_code, phone_number } = readFields(body, PHONE_FIELDS, errors);
    errors.throwIfAny();
    if (iso_code === undefined || phone_number === undefined) throw badRequest("iso_code and phone_number are required");
    if (user.verified_phone_number) throw badRequest("A phone number is already verified: delete it first", "phone_number");
    const s = settings(user);
    const iso = iso_code.toUpperCase();
    const number = phone_number;
    const same = s.phone && s.phone.expires > now() && s.phone.iso_code === iso && s.phone.phone_number === number;
    // A repeated request before the code expires sends the same code again.
    if (!same) s.phone = { iso_code: iso, phone_number: number, code: String(randomInt(0, 1_000_000)).padStart(6, "0"), expires: now() + PHONE_CODE_MS };
    return {};
  });
  router.add("POST", "/profile/phone-number/verify", auth.rw, (ctx) => {
    const body = jsonObject(ctx);
    const user = me(ctx);
    if (typeof body.otp_code !== "string" || body.otp_code.length === 0) throw badRequest("otp_code is required", "otp_code");
    const s = settings(user);
    if (!s.phone || s.phone.expires <= now()) throw badRequest("No verification code is pending: request a new one", "otp_code");
    if (body.otp_code !== s.phone.code) throw badRequest("Invalid verification code", "otp_code");
    user.verified_phone_number = s.phone.phone_number;
    delete s.phone;
    return {};
  });
  router.add("DELETE", "/profile/phone-number", auth.rw, (ctx) => {
    const user = me(ctx);
    if (!user.verified_phone_number) throw badRequest("No phone number is verified");
    user.verified_phone_number = null;
    return {};
  });

  // Preferences: any JSON object, replaced whole.
  router.add("GET", "/profile/preferences", auth.ro, (ctx) => settings(me(ctx)).preferences);
  router.add("PUT", "/profile/preferences", auth.rw, (ctx) => {
    const body = jsonObject(ctx);
    if (JSON.stringify(body).length > MAX_PREFERENCES) throw badRequest(`Preferences must be at most ${MAX_PREFERENCES} characters`);
    const s = settings(me(ctx));
    s.preferences = body;
    return s.preferences;
  });

  // Security questions: every question with the user's answer or null; an answer sets exactly three.
  const questionView = (s: ProfileSettingsRecord, id: number) => ({ id, question: SECURITY_QUESTIONS[id - 1], response: s.answers[id] ?? null });
  router.add("GET", "/profile/security-questions", auth.ro, (ctx) => {
    const s = settings(me(ctx));
    return { security_questions: SECURITY_QUESTIONS.map((_, i) => questionView(s, i + 1)) };
  });
  router.add("POST", "/profile/security-questions", auth.rw, (ctx) => {
    const body = jsonObject(ctx);
    const items = body.security_questions;
    if (!Array.isArray(items) || items.length !== 3) throw badRequest("Exactly three security questions must be answered", "security_questions");
    const errors = new FieldErrors();
    const answers: Record<string, string> = {};
    items.forEach((item: unknown, i) => {
      const q = (item ?? {}) as { question_id?: unknown; response?: unknown };
      const id = q.question_id;
      if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > SECURITY_QUESTIONS.length)
        errors.add(`security_questions[${i}].question_id`, `Must be a question id from 1 to ${SECURITY_QUESTIONS.length}`);
      else if (answers[id] !== undefined) errors.add(`security_questions[${i}].question_id`, "The three questions must be different");
      if (typeof q.response !== "string" || q.response.trim().length === 0 || q.response.length > 255)
        errors.add(`security_questions[${i}].response`, "Must be an answer of 1 to 255 characters");
      else if (typeof id === "number") answers[id] = q.response;
    });
    errors.throwIfAny();
    const s = settings(me(ctx));
    // Earlier answers are overwritten; questions not answered now are reset.
    s.answers = answers;
    return { security_questions: Object.keys(answers).map((id) => questionView(s, Number(id))) };
  });

  // Two-factor authentication: a secret (after the security questions), confirmed with a current code.
  router.add("POST", "/profile/tfa-enable", auth.rw, (ctx) => {
    const user = me(ctx);
    const s = settings(user);
    if (Object.keys(s.answers).length < 3) throw badRequest("Answer the security questions before enabling two-factor authentication");
    if (user.two_factor_auth) throw badRequest("Two-factor authentication is already enabled");
    s.tfa = { secret: base32(randomBytes(10)), expires: now() + TFA_SECRET_MS };
    return { secret: s.tfa.secret, expiry: apiTime(s.tfa.expires) };
  });
  router.add("POST", "/profile/tfa-enable-confirm", auth.rw, (ctx) => {
    const body = jsonObject(ctx);
    const user = me(ctx);
    if (typeof body.tfa_code !== "string" || body.tfa_code.length === 0) throw badRequest("tfa_code is required", "tfa_code");
    const s = settings(user);
    if (!s.tfa || s.tfa.expires <= now()) throw badRequest("No two-factor secret is pending: create one first", "tfa_code");
    // The current code, or the one of the step before or after (a clock a little off).
    const t = now();
    if (![t - 30_000, t, t + 30_000].some((at) => totp(s.tfa!.secret, at) === body.tfa_code)) throw badRequest("Invalid code", "tfa_code");
    user.two_factor_auth = true;
    delete s.tfa;
    return { scratch: base32(randomBytes(10)) };
  });
  router.add("POST", "/profile/tfa-disable", auth.rw, (ctx) => {
    const user = me(ctx);
    user.two_factor_auth = false;
    delete settings(user).tfa;
    return {};
  });
}
