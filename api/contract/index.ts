import { allDatabasesApi, mysqlBackupsApi, mysqlDatabasesApi, postgresqlBackupsApi, postgresqlDatabasesApi } from "./database-endpoints";
import type { AnyEndpoint } from "./endpoint";
import { eventsApi } from "./events";
import { backupsApi } from "./backups";
import { configsApi } from "./configs";
import { disksApi } from "./disks";
import { instanceActionsApi } from "./instance-actions";
import { instancesApi } from "./instances";
import { interfacesApi } from "./interfaces";
import { profileApi, sshKeysApi, tokensApi } from "./profile";
import { appsApi, devicesApi, loginsApi, phoneNumberApi, preferencesApi, securityQuestionsApi, twoFactorApi } from "./profile-security";
import { databaseEnginesApi, databaseTypesApi, kernelsApi, regionsApi, typesApi } from "./reference";
import { imagesApi } from "./images";
import { subnetsApi, vpcsApi } from "./vpcs";

/**
 * The API's contract: every endpoint of the three spec documents (and the real API's endpoints the recordings use
 * beyond them), one row each, grouped by what they act on. The emulator serves each row; the provider calls them.
 * A group is added here once, from its module.
 */
export const API = {
  profile: profileApi,
  tokens: tokensApi,
  sshKeys: sshKeysApi,
  apps: appsApi,
  devices: devicesApi,
  logins: loginsApi,
  phoneNumber: phoneNumberApi,
  preferences: preferencesApi,
  securityQuestions: securityQuestionsApi,
  twoFactor: twoFactorApi,
  regions: regionsApi,
  types: typesApi,
  kernels: kernelsApi,
  databaseEngines: databaseEnginesApi,
  databaseTypes: databaseTypesApi,
  events: eventsApi,
  vpcs: vpcsApi,
  subnets: subnetsApi,
  images: imagesApi,
  databases: allDatabasesApi,
  mysqlDatabases: mysqlDatabasesApi,
  mysqlBackups: mysqlBackupsApi,
  postgresqlDatabases: postgresqlDatabasesApi,
  postgresqlBackups: postgresqlBackupsApi,
  instances: instancesApi,
  instanceActions: instanceActionsApi,
  backups: backupsApi,
  configs: configsApi,
  interfaces: interfacesApi,
  disks: disksApi,
} as const;

/** Every row of the contract. */
export const ENDPOINTS: readonly AnyEndpoint[] = Object.values(API).flatMap((group: Record<string, AnyEndpoint>) => Object.values(group));
