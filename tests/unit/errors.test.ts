import { ApiClient, ApiError, NetworkError } from "../../provider/transport/client";
import { ComputeError, describeFailure, KeptResourceError } from "../../provider/lifecycle/errors";
import { vpcSpec } from "../../provider/resources/vpc";

describe("one error type for failed operations", () => {
  test("an API error keeps its status, the API's reasons and the original error as cause", () => {
    const api = new ApiError(400, [{ field: "label", reason: "Label must be unique" }], "PUT", "/v4/vpcs/7");
    api.attempts = 1;
    const e = describeFailure(vpcSpec, "update", "7", api);
    expect(e).toBeInstanceOf(ComputeError);
    expect(e).toMatchObject({
      operation: "update",
      resource: "VPC",
      resourceId: "7",
      status: 400,
      apiErrors: [{ field: "label", reason: "Label must be unique" }],
    });
    expect(e.cause).toBe(api);
    expect(e.message).toBe("cannot update VPC 7: the API answered HTTP 400: label: Label must be unique");
  });

  test("a network failure says what happened, how many attempts were made and over how long", async () => {
    const c = new ApiClient({ baseUrl: "http://127.0.0.1:1/v4", token: "t", retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const err = await c.get("/vpcs").catch((x: unknown) => x);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).attempts).toBe(3);
    const e = describeFailure(vpcSpec, "read", "7", err);
    expect(e.message).toMatch(/^cannot read VPC 7: no answer from the API: connection refused \(ECONNREFUSED\), 3 attempts over \d+\.\d s$/);
    expect(e.attempts).toBe(3);
    expect(e.cause).toBe(err);
  });

  test("only an error that keeps the resource has an id: the dynamic provider server would record any other as kept, with no outputs", () => {
    const failed = describeFailure(vpcSpec, "update", "7", new Error("refused"));
    expect("id" in failed).toBe(false);
    expect(failed.resourceId).toBe("7");
    const kept = new KeptResourceError("kept", failed, "7", { label: "x" });
    expect(kept).toMatchObject({ id: "7", properties: { label: "x" }, reasons: ["kept"], operation: "update", resource: "VPC" });
    expect(kept).toBeInstanceOf(ComputeError);
  });

  test("an error that is already a ComputeError is passed on as it is", () => {
    const first = describeFailure(vpcSpec, "create", undefined, new Error("boom"));
    expect(describeFailure(vpcSpec, "create", undefined, first)).toBe(first);
    expect(first.message).toBe("cannot create VPC: boom");
  });
});
