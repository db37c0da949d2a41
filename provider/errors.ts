import type { ApiErrorItem } from "./client";

/**
 * The one error a provider operation fails with: what was being done (`operation`: create, read, update,
 * delete, or a step such as "resize"), to what (`resource` noun and `id`), the API's answer when there was
 * one (`status`, `apiErrors`), how many attempts were made, and the original error as `cause`. Its message
 * names all of that and never a secret.
 */
export class ComputeError extends Error {
  readonly operation: string;
  readonly resource: string;
  readonly id?: string;
  readonly status?: number;
  /** The API's field/reason pairs, when it answered with an error. */
  readonly apiErrors: ApiErrorItem[];
  readonly attempts?: number;
  constructor(
    message: string,
    info: { operation: string; resource: string; id?: string; status?: number; apiErrors?: ApiErrorItem[]; attempts?: number; cause?: unknown },
  ) {
    super(message, { cause: info.cause });
    this.name = "ComputeError";
    this.operation = info.operation;
    this.resource = info.resource;
    this.id = info.id;
    this.status = info.status;
    this.apiErrors = info.apiErrors ?? [];
    this.attempts = info.attempts;
  }
}
