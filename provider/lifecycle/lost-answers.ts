import { pause } from "./cancel";
import { LostAnswerError, type ApiClient } from "../transport/client";
import type { ApiRecord, Props, ResourceSpec } from "../model/table";

/**
 * The lost-answer protocol: a request that changes something (a create, an action) is never sent twice
 * blindly. When its answer is lost (the request may have taken effect), the resource is looked at first:
 * what a create made is adopted, an action that took effect is not sent again. docs/reliability.md.
 */

/** How many times a create or an action is tried when its answers keep getting lost. */
const ATTEMPTS = 10;

/**
 * POSTs an action (boot, resize, ...). When its answer is lost, `applied` looks at the resource to tell
 * whether it took effect (a boot under way, the new type in place); only when it did not is the action
 * sent again. Actions whose repeat is harmless pass no `applied` and are simply sent again.
 */
export async function act(c: ApiClient, path: string, body: Props, applied?: () => Promise<boolean>): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await c.request("POST", path, { body, idempotent: false });
      return;
    } catch (err) {
      if (!(err instanceof LostAnswerError) || i >= ATTEMPTS) throw err;
      if (applied && (await applied())) return;
    }
  }
}

/** A create whose outcome cannot be told: what may exist, and how to find it. */
export class UnidentifiedCreateError extends Error {}

/**
 * POSTs a create. When the answer is lost (the request may have taken effect), looks for what it may
 * have made and adopts it; only when nothing is there is the create sent again. Never a blind repeat:
 * a resource with no way to be found (no `findExisting`) fails with an error that says what may exist.
 */
export async function createOnce<Api extends ApiRecord>(c: ApiClient, spec: ResourceSpec<Api>, body: Props, inputs: Props): Promise<Api> {
  const since = Date.now();
  for (let i = 1; ; i++) {
    try {
      return (await c.request<Api>("POST", spec.collectionPath(inputs), { body, idempotent: false })).body;
    } catch (err) {
      if (!(err instanceof LostAnswerError) || i >= ATTEMPTS) throw err;
      if (!spec.findExisting) {
        throw new UnidentifiedCreateError(
          `the answer to the create was lost and nothing identifies what it may have made: a new ${spec.noun} may exist under ${c.baseUrl}${spec.collectionPath(inputs)}. ` +
            "List it there; delete it, or run pulumi up again to make another",
        );
      }
      const found = await spec.findExisting(c, body, inputs, since);
      if (found) return found;
      // It was not made: send it again, after a short pause.
      await pause(Math.min(100 * i, 1000), `looking for what a lost create made`);
    }
  }
}
