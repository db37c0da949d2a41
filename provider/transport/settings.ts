import { session, type Session, type Settings } from "../session";
import { ApiClient, type RetryPolicy } from "./client";
import { UNKNOWN } from "../model/table";

export type { Settings };

/**
 * Provider settings: Pulumi config `compute:token` / `compute:apiUrl` (through `configure`), else the
 * environment variables `COMPUTE_TOKEN` / `COMPUTE_API_URL`, kept in the provider process's session
 * (provider/session.ts); nothing of it is serialized into the stack.
 */
export function configure(config: { get(key: string): string | undefined }): void {
  session().settings = { token: config.get("compute:token") || undefined, apiUrl: config.get("compute:apiUrl") || undefined };
}

export class SettingsError extends Error {}

export function retryPolicyFromEnv(): Partial<RetryPolicy> {
  const out: Partial<RetryPolicy> = {};
  const maxTime = process.env.COMPUTE_RETRY_MAX_TIME_MS;
  if (maxTime && /^\d+$/.test(maxTime)) out.maxTimeMs = Number(maxTime);
  const retries = process.env.COMPUTE_RETRY_ATTEMPTS;
  if (retries && /^\d+$/.test(retries)) out.retries = Number(retries);
  return out;
}

/** The API client for the current settings (one per settings, reused across calls). */
export function client(): ApiClient {
  return clientFor(session().settings, { tokenRequired: true });
}

/** A setting that cannot be used: the property, and the words that name its config key and variable. */
export interface SettingsProblem {
  property: "token" | "apiUrl";
  reason: string;
}

/**
 * What is wrong with the settings (given, else the environment's), each naming its config key and its
 * environment variable: checked at preview (the dynamic provider's first check, the plugin's CheckConfig)
 * and before every client is made. A value not known yet (an explicit provider's, at preview) passes.
 */
export function settingsProblems(given: Settings, opts: { tokenRequired: boolean }): SettingsProblem[] {
  const token = given.token || process.env.COMPUTE_TOKEN || undefined;
  const apiUrl = given.apiUrl || process.env.COMPUTE_API_URL || undefined;
  const problems: SettingsProblem[] = [];
  if (!token && opts.tokenRequired) {
    problems.push({
      property: "token",
      reason: "No API token is set: run `pulumi config set --secret compute:token <token>` or set the COMPUTE_TOKEN environment variable.",
    });
  }
  if (!apiUrl) {
    problems.push({
      property: "apiUrl",
      reason:
        "No API URL is set: run `pulumi config set compute:apiUrl <url ending in /v4>` or set the COMPUTE_API_URL environment variable (for the local emulator, the URL it prints).",
    });
  } else if (apiUrl !== UNKNOWN && !isHttpUrl(apiUrl)) {
    problems.push({
      property: "apiUrl",
      reason: `compute:apiUrl (or COMPUTE_API_URL) must be an http(s) URL ending in /v4, got "${apiUrl.slice(0, 100)}"`,
    });
  }
  return problems;
}

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && Boolean(u.host) && !/\s/.test(v);
  } catch {
    return false;
  }
}

/** The settings as configured (for the dynamic provider's check at preview). */
export const configuredSettings = (): Settings => ({ ...session().settings });

/**
 * The API client for the given settings, else the environment's (COMPUTE_API_URL, COMPUTE_TOKEN): the one
 * client of resources and read functions alike, with the retry policy and the URL checks. Reference data
 * needs no token (`tokenRequired: false`).
 */
export function clientFor(given: Settings, opts: { tokenRequired: boolean }): ApiClient {
  const problem = settingsProblems(given, opts)[0];
  if (problem) throw new SettingsError(problem.reason);
  const token = given.token || process.env.COMPUTE_TOKEN || "";
  const apiUrl = given.apiUrl || process.env.COMPUTE_API_URL;
  if (!apiUrl) throw new SettingsError("no API URL: set compute:apiUrl or COMPUTE_API_URL");
  const key = `${apiUrl}\n${token}`;
  const s = session();
  let kept = clients.get(s);
  if (kept?.key !== key) {
    kept = { key, client: new ApiClient({ baseUrl: apiUrl, token, retry: retryPolicyFromEnv(), shared: (url, t) => s.perApi(url, t) }) };
    clients.set(s, kept);
  }
  return kept.client;
}

/**
 * Each session's client of its current settings, reused across calls: kept beside the session (it goes with
 * it), since the session imports no transport code, which itself uses the session.
 */
const clients = new WeakMap<Session, { key: string; client: ApiClient }>();
