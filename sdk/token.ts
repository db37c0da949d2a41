// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
import * as pulumi from "@pulumi/pulumi";
import { registration } from "./registration";
import provider = require("./providers/token");

/** The arguments of Token: its inputs. */
export interface TokenArgs {
  /** 1..100 characters, display only; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  label?: pulumi.Input<string>;
  /** The OAuth scopes, separated by spaces (`computes:read_only databases:read_write`), or `*` for all: at most those of the token the provider acts with (the API refuses more, naming `scopes`). The API fixes them at creation: changing them replaces the token. */
  scopes: pulumi.Input<string>;
  /** When the token stops working, an ISO 8601 date-time in the future (kept as the API writes it: UTC, to the second, no zone); left out, it works until revoked. Tokens cannot be renewed: changing it replaces the token. */
  expiry?: pulumi.Input<string>;
}

/** A personal access token of the user's profile (`/profile/tokens`), for a program or an agent that calls the API (a monitoring agent with read-only scopes, say). Its value is the secret output `token`: the API shows it only in the create answer, so it is kept from there. Delete revokes it: requests with it fail with 401 at once. See docs/resources/token.md. */
export class Token extends pulumi.dynamic.Resource {
  /** 1..100 characters, display only; auto-named `<resource name>-<suffix>` when left out. Changed in place. */
  declare readonly label: pulumi.Output<string>;
  /** The OAuth scopes, separated by spaces (`computes:read_only databases:read_write`), or `*` for all: at most those of the token the provider acts with (the API refuses more, naming `scopes`). The API fixes them at creation: changing them replaces the token. */
  declare readonly scopes: pulumi.Output<string>;
  /** When the token stops working, an ISO 8601 date-time in the future (kept as the API writes it: UTC, to the second, no zone); left out, it works until revoked. Tokens cannot be renewed: changing it replaces the token. */
  declare readonly expiry: pulumi.Output<string | undefined>;
  /** The token's value (secret), from the create answer; a read never replaces it (the API shows only its first 16 characters). Empty after an import: the value cannot be recovered. */
  declare readonly token: pulumi.Output<string | undefined>;
  /** When the token was created. */
  declare readonly created: pulumi.Output<string>;

  /** Reads an existing Token by its id, without managing it (Pulumi's `get`): its outputs are what the API shows. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: Partial<TokenArgs>, opts?: pulumi.CustomResourceOptions): Token {
    return new Token(name, (state ?? {}) as TokenArgs, { ...opts, id });
  }

  constructor(name: string, args: TokenArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, ...registration("Token", name, args, opts), "compute", "Token");
  }
}
