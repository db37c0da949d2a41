import { ApiClient, type RetryPolicy } from "./client";

/**
 * Provider settings: Pulumi config `compute:token` / `compute:apiUrl` (through `configure`), else the
 * environment variables `COMPUTE_TOKEN` / `COMPUTE_API_URL`. This state lives in the dynamic provider's
 * process at run time; nothing of it is serialized into the stack.
 */
interface Settings {
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
  const token = configured.token ?? process.env.COMPUTE_TOKEN;
  const apiUrl = configured.apiUrl ?? process.env.COMPUTE_API_URL;
  if (!token) {
    throw new SettingsError("No API token is set: run `pulumi config set --secret compute:token <token>` or set the COMPUTE_TOKEN environment variable.");
  }
  if (!apiUrl) {
    throw new SettingsError(
      "No API URL is set: run `pulumi config set compute:apiUrl <url ending in /v4>` or set the COMPUTE_API_URL environment variable (for the local emulator, the URL it prints).",
    );
  }
  if (!/^https?:\/\/[^\s]+$/.test(apiUrl)) throw new SettingsError(`compute:apiUrl must be an http(s) URL, got "${apiUrl.slice(0, 100)}"`);
  const key = `${apiUrl}\n${token}`;
  if (cached?.key !== key) cached = { key, client: new ApiClient({ baseUrl: apiUrl, token, retry: retryPolicyFromEnv() }) };
  return cached.client;
}
