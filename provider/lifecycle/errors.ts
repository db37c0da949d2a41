import { ApiError, NetworkError, type ApiErrorItem } from "../transport/client";
import type { Props, ResourceSpec } from "../model/table";

export interface ComputeErrorInfo {
  operation: string;
  resource: string;
  id?: string;
  status?: number;
  apiErrors?: ApiErrorItem[];
  attempts?: number;
  cause?: unknown;
}

/**
 * The error of a provider operation: what was being done (`operation`: create, read, update, delete, or a
 * step such as "resize"), to what (`resource` noun and `id`), the API's answer when there was one
 * (`status`, `apiErrors`), how many attempts were made, and the original error as `cause`. Its message
 * names all of that and never a secret. A check failure is not one (it names its property), nor a refusal
 * of a hook that names the input at fault (`swapSize: ...`): those are plain errors with their own words.
 */
export class ComputeError extends Error {
  readonly operation: string;
  readonly resource: string;
  /**
   * The resource's id. Not `id`: the dynamic provider server takes any error with an `id` for a resource
   * that was kept (ErrorResourceInitFailed), and would record a failed update's resource with no outputs.
   * Only a {@link KeptResourceError} has an `id`.
   */
  readonly resourceId?: string;
  readonly status?: number;
  /** The API's field/reason pairs, when it answered with an error. */
  readonly apiErrors: ApiErrorItem[];
  readonly attempts?: number;
  constructor(message: string, info: ComputeErrorInfo) {
    super(message, { cause: info.cause });
    this.name = "ComputeError";
    this.operation = info.operation;
    this.resource = info.resource;
    this.resourceId = info.id;
    this.status = info.status;
    this.apiErrors = info.apiErrors ?? [];
    this.attempts = info.attempts;
  }
}

/**
 * A failure after the resource exists, which keeps it: Pulumi records the resource with this id and these
 * properties (as "created, but failed to initialize", or an update's partial result), so the next `up` or
 * `refresh` continues from it instead of orphaning it. The engine reads `id`, `properties` and `reasons`.
 */
export class KeptResourceError extends ComputeError {
  readonly id: string;
  readonly properties: Props;
  readonly reasons: string[];
  constructor(message: string, cause: ComputeError, id: string, properties: Props) {
    super(message, { ...cause, operation: cause.operation, resource: cause.resource, apiErrors: cause.apiErrors, cause: cause.cause, id });
    this.id = id;
    this.properties = properties;
    this.reasons = [message];
  }
}

/**
 * The error of a failed operation: a {@link ComputeError} whose message names the operation, the resource
 * and the API's reason (or how long the API did not answer), never a secret, and that keeps the original
 * error as its `cause`.
 */
export function describeFailure(spec: Pick<ResourceSpec, "noun">, op: string, id: string | undefined, err: unknown): ComputeError {
  if (err instanceof ComputeError) return err;
  const what = `${spec.noun}${id ? ` ${id}` : ""}`;
  const info = { operation: op, resource: spec.noun, id, cause: err };
  if (err instanceof ApiError) {
    let hint = "";
    if (err.status === 401) hint = " (the API token is missing, unknown, expired or revoked: check compute:token or COMPUTE_TOKEN)";
    else if (err.status === 403) hint = " (the token or user lacks the permission for this: check the token's scopes and the user's grants)";
    const tries = err.attempts > 1 ? ` (after ${err.attempts} attempts)` : "";
    return new ComputeError(`cannot ${op} ${what}: the API answered HTTP ${err.status}: ${err.reasons}${hint}${tries}`, {
      ...info,
      status: err.status,
      apiErrors: err.errors,
      attempts: err.attempts,
    });
  }
  if (err instanceof NetworkError) return new ComputeError(`cannot ${op} ${what}: no answer from the API: ${err.summary}`, { ...info, attempts: err.attempts });
  const message = err instanceof Error ? err.message : String(err);
  return new ComputeError(`cannot ${op} ${what}: ${message}`, info);
}

/** An error's message (a thrown value that is not an Error: its text). */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
