import { z } from "zod";
/**
 * What the plugin and the engine tell each other: the protocol the plugin supports (the Handshake's and
 * Configure's answer), the engine's address and what it reads (`EngineLink`), and the package the plugin
 * runs from (its version, its schema).
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** The package's folder (package.json, schema.json): above dist/provider/plugin when built, provider/plugin in tests. */
export const PACKAGE_ROOT = ((): string => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (existsSync(path.join(dir, "schema.json"))) return dir;
  return path.join(__dirname, "..", "..", "..");
})();

/**
 * What the plugin supports of the protocol: the Handshake's answer, and Configure's for an engine that does not
 * handshake (the proto says they must match). The engine takes them from the Handshake when there is one.
 */
export const PROTOCOL = {
  /** Secrets arrive as secret values (unwrapped here); the plugin marks its secret outputs itself. */
  acceptSecrets: true,
  /** A resource reference arrives as its id (or URN), not as a resource value. */
  acceptResources: false,
  /** Inputs arrive as plain values (or the unknown value at preview), never as output values. */
  acceptOutputs: false,
  /** Create and Update answer at preview with the planned outputs (provider/model/plan.ts): Configure's supportsPreview. */
  supportsPreview: true,
  /** The engine's naming policies (pulumi:autonaming) reach Check (CheckRequest.autonaming). */
  supportsAutonamingConfiguration: true,
  /** Strings that are not valid UTF-8 (the byte-string values) are not taken: the API is JSON. */
  acceptsByteString: false,
} as const;

/** The Handshake's answer: PROTOCOL (the bench's do-nothing plugin answers the same). */
export function handshakeResponse(): provproto.ProviderHandshakeResponse {
  const res = new provproto.ProviderHandshakeResponse();
  res.setAcceptSecrets(PROTOCOL.acceptSecrets);
  res.setAcceptResources(PROTOCOL.acceptResources);
  res.setAcceptOutputs(PROTOCOL.acceptOutputs);
  res.setSupportsAutonamingConfiguration(PROTOCOL.supportsAutonamingConfiguration);
  res.setAcceptsByteString(PROTOCOL.acceptsByteString);
  return res;
}

/**
 * Configure's answer, the protocol as the Handshake answers it (an engine that handshook takes it from there);
 * `supportsPreview`: a preview plans what the up does, instead of taking an updated resource's inputs for its
 * outputs.
 */
export function configureResponse(): provproto.ConfigureResponse {
  const res = new provproto.ConfigureResponse();
  res.setAcceptsecrets(PROTOCOL.acceptSecrets);
  res.setAcceptresources(PROTOCOL.acceptResources);
  res.setAcceptoutputs(PROTOCOL.acceptOutputs);
  res.setSupportspreview(PROTOCOL.supportsPreview);
  res.setSupportsAutonamingConfiguration(PROTOCOL.supportsAutonamingConfiguration);
  return res;
}

/**
 * What the engine told this process: its address (the plugin's argument when the engine starts it, the
 * Handshake's, or the Attach's when the plugin was started by hand), and whether it reads a resource's
 * `refresh_before_update` (the Handshake's `supports_refresh_before_update`; an engine that does not
 * handshake does not know the field, and ignores it).
 */
export interface EngineLink {
  address?: string;
  refreshBeforeUpdate: boolean;
}

/** The engine's address among the plugin's arguments: the last that is not a flag (the engine may put `--logtostderr`, `-v=9`, `--tracing <endpoint>` first). */
export function engineAddressOf(args: string[]): string | undefined {
  let address: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tracing") i++;
    else if (!args[i].startsWith("-")) address = args[i];
  }
  return address;
}

export function version(): string {
  return z.object({ version: z.string() }).parse(JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8"))).version;
}

/**
 * Where the engine downloads the plugin from, as the generated SDKs send it with each resource: schema.json's
 * `pluginDownloadURL`, its `${VERSION}` left for the engine to fill in (the same string, so that a component's
 * children use the program's own default provider).
 */
export function pluginDownloadURL(): string {
  return z.object({ pluginDownloadURL: z.string() }).parse(JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "schema.json"), "utf8"))).pluginDownloadURL;
}
