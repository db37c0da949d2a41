import { ApiClient, type RetryPolicy } from "./client";

/**
 * Provider settings: Pulumi config `compute:token` / `compute:apiUrl` (through `configure`), else the
 * environment variables `COMPUTE_TOKEN` / `COMPUTE_API_URL`. This state lives in the dynamic provider's
 * process at run time; nothing of it is serialized into the stack.
 */
export interface Settings {
  token?: string;
  apiUrl?: string;
}

let configured: Settings = {};
let cached: { key: string; client: ApiClient } | undefined;

export function configure(config: { get(key: string): string | undefined }): void {
  configured = { token: config.get("compute:token") || undefined, apiUrl: config.get("compute:apiUrl") || undefined };
}

/** For tests: forget what configure() set. */
export function resetSettings(): void {
  configured = {};
  cached = undefined;
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
  return clientFor(configured, { tokenRequired: true });
}

/**
 * The API client for the given settings, else the environment's (COMPUTE_API_URL, COMPUTE_TOKEN): the one
 * client of resources and read functions alike, with the retry policy and the URL checks. Reference data
 * needs no token (`tokenRequired: false`).
 */
export function clientFor(given: Settings, opts: { tokenRequired: boolean }): ApiClient {
  const token = given.token || process.env.COMPUTE_TOKEN || undefined;
  const apiUrl = given.apiUrl || process.env.COMPUTE_API_URL || undefined;
  if (!token && opts.tokenRequired) {
    throw new SettingsError("No API token is set: run `pulumi config set --secret compute:token <token>` or set the COMPUTE_TOKEN environment variable.");
  }
  if (!apiUrl) {
    throw new SettingsError(
      "No API URL is set: run `pulumi config set compute:apiUrl <url ending in /v4>` or set the COMPUTE_API_URL environment variable (for the local emulator, the URL it prints).",
    );
  }
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl)) throw new SettingsError(`compute:apiUrl must be an http(s) URL, got "${apiUrl.slice(0, 100)}"`);
  const key = `${apiUrl}\n${token ?? ""}`;
  if (cached?.key !== key) cached = { key, client: new ApiClient({ baseUrl: apiUrl, token: token ?? "", retry: retryPolicyFromEnv() }) };
  return cached.client;
}
