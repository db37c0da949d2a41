/**
 * The plumbing every gRPC method of the plugin shares: a unary call and its callback, a handler's answer (its
 * result, or its error as the engine reads it), a check failure on the wire, and a method not implemented.
 */
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { counted } from "../lifecycle/cancel";
import { failure } from "./wire";

export type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
export type Callback<Res> = (err: grpc.ServiceError | Partial<grpc.StatusObject> | null, value?: Res | null, trailer?: grpc.Metadata) => void;

/** Runs a handler and answers with its result or its error (counted: a signal lets it answer first). */
export function answer<Res>(cb: Callback<Res>, fn: () => Promise<Res>, onError: (e: unknown) => Partial<grpc.StatusObject> = (e) => failure(e)): void {
  counted(fn).then(
    (r) => cb(null, r),
    (e: unknown) => {
      const f = onError(e);
      cb(f, null, f.metadata);
    },
  );
}

export const unimplemented = (what: string) => (_call: unknown, cb: Callback<unknown>) =>
  cb({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-compute` });

export function toCheckFailure(f: { property: string; reason: string }): provproto.CheckFailure {
  const out = new provproto.CheckFailure();
  out.setProperty(f.property);
  out.setReason(f.reason);
  return out;
}
