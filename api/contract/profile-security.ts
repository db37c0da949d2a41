import { z } from "zod";
import { LENGTH_LIMITS } from "../text";
import { apiTime, intWithin, page, pageQuery, refuse, recordId } from "./common";
import { empty, endpoint, ro, rw } from "./endpoint";

/**
 * profile-api.md beyond the profile, its grants, tokens and SSH keys (api/contract/profile.ts): authorized apps,
 * trusted devices, logins, the phone number and its verification, preferences, security questions and
 * two-factor authentication. What the spec leaves open is docs/spec-gaps.md "Profile, tokens, SSH keys".
 */

/** profile-api.md "Authorized app". */
export const authorizedApp = z.strictObject({
  id: recordId,
  label: z.string(),
  /** "OAuth scopes granted". */
  scopes: z.string(),
  created: apiTime,
  expiry: apiTime.nullable(),
  thumbnail_url: z.string().nullable(),
  website: z.string(),
});

/** profile-api.md "Trusted device". */
export const trustedDevice = z.strictObject({
  id: recordId,
  /** "start of the remember-me session". */
  created: apiTime,
  /** "sessions typically last 30 days". */
  expiry: apiTime,
  last_authenticated: apiTime,
  last_remote_addr: z.string(),
  user_agent: z.string(),
});

/** profile-api.md "Login": "status (enum `successful`, `failed`)". */
export const LOGIN_STATUSES = ["successful", "failed"] as const;

/** profile-api.md "Login". */
export const login = z.strictObject({
  id: recordId,
  datetime: apiTime,
  /** "string, IP". */
  ip: z.string(),
  restricted: z.boolean(),
  status: z.enum(LOGIN_STATUSES),
  username: z.string(),
});

const ISO_CODE_TEXT = "Must be a two-letter ISO 3166 country code";
const PHONE_TEXT = "Must be a phone number";

/** profile-api.md `POST /profile/phone-number`: "`iso_code` (string, two-letter ISO 3166 country code, required), `phone_number` (string, required)". */
export const phoneNumberSend = z.object({
  iso_code: z.string({ error: ISO_CODE_TEXT }).regex(/^[A-Za-z]{2}$/, ISO_CODE_TEXT),
  /** Digits, with `+ ( ) -` and spaces (docs/spec-gaps.md "Phone verification"). */
  phone_number: z.string({ error: PHONE_TEXT }).regex(/^\+?[0-9][0-9 ()-]{3,19}$/, PHONE_TEXT),
});

/** A code or an answer that must be given: a string, not empty, refused with `text`. */
const required = (text: string) => z.string({ error: text }).min(1, text);

/** profile-api.md `POST /profile/phone-number/verify`: "`otp_code` (string, required)". */
export const phoneNumberVerify = z.object({ otp_code: required("otp_code is required") });

/** profile-api.md "Limits": "Preferences body | at most 65,535 characters" (counted as JSON). */
export const MAX_PREFERENCES = LENGTH_LIMITS.preferences[1];

/** The preferences: "arbitrary JSON object" (per user here: docs/spec-gaps.md "Preferences"). */
export const preferences = z.record(z.string(), z.unknown());

/** profile-api.md `PUT /profile/preferences`: "arbitrary JSON object, total length at most 65,535 characters; overwrites existing preferences". */
export const preferencesUpdate = preferences.check(
  z.superRefine((v, ctx) => {
    if (JSON.stringify(v).length > MAX_PREFERENCES) refuse(ctx, `Preferences must be at most ${MAX_PREFERENCES} characters`);
  }),
);

/** The security questions a user can answer, as the real API lists them (TestSecurityQuestions_List); a question's id is its place here, from 1. */
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
] as const;

/** profile-api.md "Security question response": the item ("not shown": the real API's), `response` null when unanswered. */
export const securityQuestion = z.strictObject({ id: recordId, question: z.string(), response: z.string().nullable() });

/** The answer of both security question endpoints: "The response body carries `security_questions` (array)". */
export const securityQuestions = z.strictObject({ security_questions: z.array(securityQuestion) });

/** profile-api.md "Limits": "Security questions per answer request | exactly 3, unique". */
export const SECURITY_ANSWERS = 3;
const ANSWER_TEXT = "Must be an answer of 1 to 255 characters";

/** profile-api.md "Security question response": "Request item: `question_id` (integer), `response` (string, secret answer)". */
export const securityAnswer = z.object(
  {
    question_id: intWithin(1, SECURITY_QUESTIONS.length, `Must be a question id from 1 to ${SECURITY_QUESTIONS.length}`),
    response: z
      .string({ error: ANSWER_TEXT })
      .max(255, ANSWER_TEXT)
      .refine((v) => v.trim().length > 0, ANSWER_TEXT),
  },
  { error: "Must be an object with question_id and response" },
);

const THREE_TEXT = "Exactly three security questions must be answered";

/** profile-api.md `POST /profile/security-questions`: "`security_questions` (array of exactly three unique questions)". */
export const securityAnswers = z.object({
  security_questions: z
    .array(securityAnswer, { error: THREE_TEXT })
    .length(SECURITY_ANSWERS, THREE_TEXT)
    .superRefine((items, ctx) => {
      const seen = new Set<number>();
      items.forEach((item, i) => {
        if (seen.has(item.question_id)) refuse(ctx, "The three questions must be different", undefined, [i, "question_id"]);
        seen.add(item.question_id);
      });
    }),
});

/** profile-api.md "Two-factor secret": "`secret` (string, seed for time-based codes), `expiry` (date-time)". */
export const twoFactorSecret = z.strictObject({ secret: z.string(), expiry: apiTime });

/** profile-api.md `POST /profile/tfa-enable-confirm`: "`tfa_code` (string)". */
export const twoFactorConfirm = z.object({ tfa_code: required("tfa_code is required") });

/** "Confirmation returns `scratch` (string, a one-use backup code)". */
export const twoFactorScratch = z.strictObject({ scratch: z.string() });

const source = "profile-api.md";
const account = { ro: ro("account"), rw: rw("account") };
const reads = { source, scope: account.ro, auth: "required" } as const;
const writes = { source, scope: account.rw, auth: "required" } as const;

/** profile-api.md: authorized apps, read and revoked. */
export const appsApi = {
  list: endpoint({ method: "GET", path: "/profile/apps", ...reads, summary: "List authorized apps", query: pageQuery, answer: page(authorizedApp) }),
  get: endpoint({ method: "GET", path: "/profile/apps/{appId}", ...reads, summary: "View an authorized app", answer: authorizedApp }),
  delete: endpoint({ method: "DELETE", path: "/profile/apps/{appId}", ...writes, summary: "Revoke an authorized app", answer: empty }),
};

/** profile-api.md: trusted devices, read and revoked. */
export const devicesApi = {
  list: endpoint({ method: "GET", path: "/profile/devices", ...reads, summary: "List trusted devices", query: pageQuery, answer: page(trustedDevice) }),
  get: endpoint({ method: "GET", path: "/profile/devices/{deviceId}", ...reads, summary: "View a trusted device", answer: trustedDevice }),
  delete: endpoint({ method: "DELETE", path: "/profile/devices/{deviceId}", ...writes, summary: "Revoke a trusted device", answer: empty }),
};

/** profile-api.md: the logins of the last 90 days. */
export const loginsApi = {
  list: endpoint({ method: "GET", path: "/profile/logins", ...reads, summary: "List the logins of the last 90 days", query: pageQuery, answer: page(login) }),
  get: endpoint({ method: "GET", path: "/profile/logins/{loginId}", ...reads, summary: "View a login", answer: login }),
};

/** profile-api.md: the phone number's verification. */
export const phoneNumberApi = {
  send: endpoint({
    method: "POST",
    path: "/profile/phone-number",
    ...writes,
    summary: "Send a verification code to a phone number",
    body: phoneNumberSend,
    answer: empty,
  }),
  verify: endpoint({
    method: "POST",
    path: "/profile/phone-number/verify",
    ...writes,
    summary: "Verify the phone number with the code sent",
    body: phoneNumberVerify,
    answer: empty,
  }),
  delete: endpoint({ method: "DELETE", path: "/profile/phone-number", ...writes, summary: "Delete the verified phone number", answer: empty }),
};

/** profile-api.md: preferences. */
export const preferencesApi = {
  get: endpoint({ method: "GET", path: "/profile/preferences", ...reads, summary: "View the preferences", answer: preferences }),
  update: endpoint({
    method: "PUT",
    path: "/profile/preferences",
    ...writes,
    summary: "Replace the preferences",
    body: preferencesUpdate,
    answer: preferences,
  }),
};

/** profile-api.md: security questions. */
export const securityQuestionsApi = {
  list: endpoint({
    method: "GET",
    path: "/profile/security-questions",
    ...reads,
    summary: "List the security questions with the user's answers",
    answer: securityQuestions,
  }),
  answer: endpoint({
    method: "POST",
    path: "/profile/security-questions",
    ...writes,
    summary: "Answer three security questions",
    body: securityAnswers,
    answer: securityQuestions,
  }),
};

/** profile-api.md: two-factor authentication. */
export const twoFactorApi = {
  enable: endpoint({ method: "POST", path: "/profile/tfa-enable", ...writes, summary: "Create a two-factor secret", answer: twoFactorSecret }),
  confirm: endpoint({
    method: "POST",
    path: "/profile/tfa-enable-confirm",
    ...writes,
    summary: "Confirm the two-factor secret with a current code",
    body: twoFactorConfirm,
    answer: twoFactorScratch,
  }),
  disable: endpoint({ method: "POST", path: "/profile/tfa-disable", ...writes, summary: "Disable two-factor authentication", answer: empty }),
};

export type AuthorizedApp = z.output<typeof authorizedApp>;
export type TrustedDevice = z.output<typeof trustedDevice>;
export type Login = z.output<typeof login>;
export type SecurityQuestion = z.output<typeof securityQuestion>;
