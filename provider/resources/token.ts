import type { ExampleProps } from "../model/example";
import type { CheckFailure } from "../model/check";
import { defineResource } from "../definition";
import type { SendContext } from "../lifecycle/hooks";
import { isExisting } from "../model/naming";
import { labelBounds } from "../../api/text";
import { pathOf } from "../../api/contract/endpoint";
import { readDateTime, tokenExpiry, tokenLabel, tokenScopes, tokensApi, type Token } from "../../api/contract/profile";
import { say } from "../lifecycle/steps";
import { tableFor } from "../model/api-table";
import { UNKNOWN } from "../model/table";
import { madeSince } from "../model/rules";
import { resource, ref } from "./example-parents";

/** A token as the API answers it (api/contract/profile.ts): `token` is its whole value in the create's answer only. */
export type TokenApi = Token;

/** How many characters of a token the API shows after its create answer. */
const PREFIX = 16;

/** A date-time as the API writes it: UTC, to the second, with no zone (`2027-01-01T00:00:00`). */
const dateTime = tokenExpiry.transform((v) => new Date(readDateTime(v)).toISOString().slice(0, 19));

/** The scopes, as the API keeps them: one space between two. */
const scopes = tokenScopes.transform((v) => v.trim().split(/\s+/).join(" "));

export const tokenSpec = tableFor(tokensApi)({
  type: "Token",
  noun: "token",
  description:
    "A personal access token of the user's profile (`/profile/tokens`), for a program or an agent that calls the API (a monitoring agent with read-only scopes, say). Its value is the secret output `token`: the API shows it only in the create answer, so it is kept from there. Delete revokes it: requests with it fail with 401 at once.",
  idFormat: 'The API\'s integer token id, as a string (for example `"42"`).',
  replacementNote:
    "A replacement makes the new token before the old one is revoked; programs using the old value get 401 from then on, so give them the new `token` output in the same `pulumi up`.",
  fields: [
    {
      name: "label",
      kind: "input",
      computed: true,
      schema: tokenLabel,
      description: "1..100 characters, display only; auto-named `<resource name>-<suffix>` when left out. Changed in place.",
    },
    {
      name: "scopes",
      kind: "input",
      required: true,
      forceNew: true,
      schema: scopes,
      description:
        "The OAuth scopes, separated by spaces (`computes:read_only databases:read_write`), or `*` for all: at most those of the token the provider acts with (the API refuses more, naming `scopes`). The API fixes them at creation: changing them replaces the token.",
    },
    {
      name: "expiry",
      kind: "input",
      forceNew: true,
      schema: dateTime,
      description:
        "When the token stops working, an ISO 8601 date-time in the future (kept as the API writes it: UTC, to the second, no zone); left out, it works until revoked. Tokens cannot be renewed: changing it replaces the token.",
    },
    {
      name: "token",
      kind: "output",
      secret: true,
      writeOnly: true,
      fromCreate: true,
      description:
        "The token's value (secret), from the create answer; a read never replaces it (the API shows only its first 16 characters). Empty after an import: the value cannot be recovered.",
    },
    { name: "created", kind: "output", description: "When the token was created." },
  ],
  autoName: { field: "label", ...labelBounds("tokenLabel"), allowed: /[A-Za-z0-9._-]/, separators: "-_." },
  collectionPath: () => pathOf(tokensApi.list, {}),
  itemPath: (id) => pathOf(tokensApi.get, { tokenId: id }),
  // A lost create answer: the token with our label and scopes made since the create began.
  async findExisting(client, body, _inputs, since) {
    const all = await client.all(tokensApi.list, {});
    const found = all.filter((t) => t.label === body.label && t.scopes === body.scopes && madeSince(t.created, since));
    return found.sort((a, b) => b.id - a.id)[0];
  },
});

/**
 * Creates the token. A create whose answer was lost is found by its label, but without its value (a read
 * shows 16 characters): that token can never be handed to the program, so it is revoked and made again.
 */
async function sendToken(create: () => Promise<TokenApi>, { client: c }: SendContext<typeof tokenSpec.fields>): Promise<TokenApi> {
  for (let i = 0; i < 3; i++) {
    const made = await create();
    if (made.token.length > PREFIX) return made;
    say(`token ${made.id} was made but the answer that held its value was lost: it is revoked and made again`);
    await c.find(tokensApi.delete, { params: { tokenId: made.id } });
  }
  throw new Error("the answers to the token's create were lost three times (each token made was revoked): run pulumi up again");
}

/** A personal access token: its table, a future expiry at preview, and the value kept from the create answer. */
export const token = defineResource({
  spec: tokenSpec,
  example: () => {
    const monitoring = resource("Token", "monitoring", { label: "monitoring-agent", scopes: "computes:read_only databases:read_only" });
    return {
      title: "A read-only token for a monitoring agent",
      resources: [monitoring],
      outputs: { tokenId: ref(monitoring), token: ref(monitoring, "token") },
    };
  },
  lookup: {
    name: "getTokens",
    scope: "`account:read_only`",
    listKey: "tokens",
    description: "The personal access tokens of the profile (their values are never listed).",
  },
  sdk: { file: "token" },
  hooks: {
    validate(news, olds) {
      const failures: CheckFailure[] = [];
      const expiry = typeof news.expiry === "string" && news.expiry !== UNKNOWN ? dateTime.safeParse(news.expiry) : undefined;
      // Refused at preview when new: a token kept as it is may outlive its expiry in the state.
      const kept = isExisting(olds) && olds.expiry === expiry?.data;
      if (expiry?.success && !kept && Date.parse(`${expiry.data}Z`) <= Date.now()) {
        failures.push({ property: "expiry", reason: `expiry: ${String(news.expiry)} is not in the future` });
      }
      return failures;
    },
    send: sendToken,
    // The value from the create answer; read and update keep the one in the state.
    extraOutputs(_c, api, props, { op }) {
      if (op === "create") return { token: api.token };
      if (op === "read" && props.token === undefined) {
        say(`token ${api.id} is read without its value (an import or a get): the API shows only its first 16 characters, so its \`token\` output stays empty`);
      }
      return {};
    },
  },
});
export const tokenProvider = token.provider;

// The inputs its examples may give (Token): its table's (provider/model/example.ts `ExampleInputs`).
declare module "../model/example" {
  interface ExampleInputs {
    Token: ExampleProps<typeof tokenSpec.fields>;
  }
}
