import { z } from "zod";
import { API } from "../../api/contract";
import { pathOf } from "../../api/contract/endpoint";
import { GRANT_ENTITIES, globalGrants as apiGlobalGrants, profile, type GlobalGrants, type Grants } from "../../api/contract/profile";
import type { ApiClient } from "../transport/client";
import { either, everyFieldShown, nullableString, out, type FunctionSpec, type ItemType } from "./function-table";
import { camel, convertKeys, type Field, type Props } from "../model/table";

/** The profile's read functions (`getProfile`, `getProfileGrants`) and the item types they return. */

const Profile: ItemType = {
  description: "The profile of the user the token acts for.",
  fields: [
    out("username", "string", "The login name."),
    out("uid", "integer", "The user's id; it never changes."),
    out("email", "string", "The email address."),
    out("emailNotifications", "boolean", "Whether notices are sent by email."),
    out("timezone", "string", "The preferred time zone (the API writes times in UTC)."),
    out("restricted", "boolean", "Whether the user acts within grants (`getProfile` tells; the grants are read elsewhere)."),
    out("twoFactorAuth", "boolean", "Whether logins from untrusted computers need a second factor."),
    out("ipWhitelistEnabled", "boolean", "Deprecated."),
    out("consoleAuthMethod", "string", `${either(profile.shape.console_auth_method.options)}.`, profile.shape.console_auth_method),
    { ...out("authorizedKeys", "array", "SSH keys authorized for the console shell, or null.", z.array(z.string()).nullable()), itemType: "string" },
    out("authenticationType", "string", "`password`, or the name of an external identity provider."),
    out("verifiedPhoneNumber", "string", "The verified phone number, or null.", nullableString),
    out(
      "referrals",
      "object",
      "`code`, `url`, `completed`, `pending`, `total`, `credit`.",
      z.object({ code: z.string(), url: z.string(), completed: z.number(), pending: z.number(), total: z.number(), credit: z.number() }),
    ),
  ],
};

const entityGrants = z.array(
  z.object({
    id: z.number().int().describe("The entity's id."),
    label: z.string().describe("Its label."),
    permissions: z.enum(["read_only", "read_write"]).nullable().describe("`read_only`, `read_write`, or null (none)."),
  }),
);
const grantList = (name: string, what: string): Field => ({
  ...out(
    name,
    "array",
    `The user's grants on ${what}: \`id\`, \`label\`, \`permissions\` (\`read_only\`, \`read_write\` or null). Empty for an unrestricted user.`,
    entityGrants,
  ),
  itemType: "object",
});
/** What each of the API's global grants allows (a grant of the contract's record without a text here does not compile). */
const GLOBAL_GRANT_TEXTS: Record<keyof GlobalGrants, string> = {
  account_access: "`read_only`, `read_write`, or null: access to the account's settings and billing.",
  add_databases: "May create database clusters.",
  add_domains: "May create domains.",
  add_firewalls: "May create firewalls.",
  add_images: "May create images.",
  add_computes: "May create instances.",
  add_monitoring: "May create monitors.",
  add_nodebalancers: "May create NodeBalancers.",
  add_scripts: "May create deployment scripts.",
  add_volumes: "May create volumes.",
  add_vpcs: "May create VPCs.",
  cancel_account: "May cancel the account.",
  child_account_access: "May act in child accounts.",
  monitoring_subscription: "May subscribe to monitoring.",
};
/** The global grants as the item shows them: the contract's, in camelCase, each described. */
const grantTexts: Readonly<Record<string, string>> = GLOBAL_GRANT_TEXTS;
const globalGrants = z.object(Object.fromEntries(Object.entries(apiGlobalGrants.shape).map(([k, schema]) => [camel(k), schema.describe(grantTexts[k])])));
const ProfileGrants: ItemType = {
  description:
    "What the user the token acts for may do: the account-wide grants and the grants on each entity. An unrestricted user (the API answers `204 No Content`) may do everything: `restricted` false, every global grant, empty entity lists.",
  fields: [
    out("restricted", "boolean", "Whether the user acts within these grants (false: an unrestricted user, who may do everything)."),
    out("global", "object", "The account-wide grants: `accountAccess` and the `add...` grants (what the user may create).", globalGrants),
    grantList("compute", "instances"),
    grantList("database", "database clusters"),
    grantList("domain", "domains"),
    grantList("image", "images"),
    grantList("monitoring", "monitors"),
    grantList("nodebalancer", "NodeBalancers"),
    grantList("script", "deployment scripts"),
    grantList("volume", "volumes"),
    grantList("vpc", "VPCs"),
    {
      ...grantList("firewall", "firewalls"),
      description: "The user's grants on firewalls (the real API's record has them; the spec does not list them): `id`, `label`, `permissions`.",
    },
  ],
};

/** The grants of an unrestricted user, for whom the API answers 204: every global grant, no entity list. */
const ALL_GRANTS: Props = {
  restricted: false,
  global: Object.fromEntries(Object.keys(globalGrants.shape).map((k) => [k, k === "accountAccess" ? "read_write" : true])),
  ...Object.fromEntries([...GRANT_ENTITIES, "firewall"].map((k) => [k, []])),
};

/** The grants record; the API answers 204 (no body) for an unrestricted user, who has every grant. */
async function readGrants(c: ApiClient): Promise<Props> {
  // A 204 has no body: the call's answer is then undefined.
  const r: Grants | undefined = await c.call(API.profile.grants, {});
  if (r === undefined || r === null) return structuredClone(ALL_GRANTS);
  return { restricted: true, ...convertKeys(r, camel) };
}

/** The object types the profile's functions return: every field of the profile; of the grants, every one but `firewall`. */
export const PROFILE_ITEMS: Record<string, ItemType> = {
  Profile: everyFieldShown(Profile),
  ProfileGrants: everyFieldShown(ProfileGrants, ["firewall"]),
};

/** The profile's functions, in the order of the docs (after the reference data's). */
export const profileFunctions: FunctionSpec[] = [
  {
    name: "getProfile",
    description: "The profile of the user the provider's token acts for (`/profile`).",
    inputs: [],
    item: "Profile",
    path: () => pathOf(API.profile.get, {}),
    what: () => "the profile",
    scope: "a token, with any scopes",
    example: { title: "Who the provider's token acts for", args: () => ({}) },
  },
  {
    name: "getProfileGrants",
    description:
      "What the user the provider's token acts for may do (`/profile/grants`): whether it is restricted, its account-wide grants (`global`: may it add instances, VPCs, databases...) and its grants on each entity.",
    inputs: [],
    item: "ProfileGrants",
    path: () => pathOf(API.profile.grants, {}),
    read: readGrants,
    scope: "a token, with any scopes",
    example: { title: "What the provider's token may do", args: () => ({}) },
  },
];
