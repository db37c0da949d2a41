import { backupsApi } from "./backups";
import { configsApi } from "./configs";
import { disksApi } from "./disks";
import type { AnyEndpoint } from "./endpoint";
import { instanceActionsApi } from "./instance-actions";
import { instancesApi } from "./instances";
import { interfacesApi } from "./interfaces";
import { profileApi, sshKeysApi, tokensApi } from "./profile";

/**
 * The API's contract: every endpoint of the three spec documents (and the real API's endpoints the recordings use
 * beyond them), one row each, grouped by what they act on. The emulator serves each row; the provider calls them.
 * A group is added here once, from its module.
 */
export const API = {
  profile: profileApi,
  tokens: tokensApi,
  sshKeys: sshKeysApi,
  instances: instancesApi,
  instanceActions: instanceActionsApi,
  backups: backupsApi,
  configs: configsApi,
  interfaces: interfacesApi,
  disks: disksApi,
} as const;

/** Every row of the contract. */
export const ENDPOINTS: readonly AnyEndpoint[] = Object.values(API).flatMap((group: Record<string, AnyEndpoint>) => Object.values(group));
