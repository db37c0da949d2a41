import { installEngineShutdownGuard, saysEngineGone } from "../../sdk/engine-shutdown";

/**
 * sdk/engine-shutdown.ts: of what `@pulumi/pulumi` logs as an error, only a gRPC refusal that says the engine
 * has gone (logged with no resource, after the run's own error) is dropped; every other error goes through.
 * (tests/e2e/errors-languages.e2e.test.ts holds a failed run's output to its one error in every language.)
 */

const gone = 'Error: 14 UNAVAILABLE: connection error: desc = "transport: Error while dialing: connection refused"\n    at callErrorFromStatus (call.ts:84:17)';

test("an error that only says the engine has gone is told apart from any other", () => {
  expect(saysEngineGone(gone)).toBe(true);
  expect(saysEngineGone("1 CANCELLED: Call cancelled")).toBe(true);
  expect(saysEngineGone("Error: boom inside an apply\n    at index.js:7")).toBe(false);
  expect(saysEngineGone("cannot create instance: the API answered HTTP 400: 14 UNAVAILABLE: x")).toBe(false);
  expect(saysEngineGone(undefined)).toBe(false);
});

test("the guard drops it, lets every other error through (and one about a resource), and installs once", async () => {
  const said: Array<[string, unknown]> = [];
  const log = { error: async (msg: string, resource?: unknown) => void said.push([msg, resource]) };
  installEngineShutdownGuard(log);
  installEngineShutdownGuard(log);
  await log.error(gone);
  await log.error("Running program failed: Error: boom");
  await log.error(gone, { urn: "a resource's" });
  expect(said).toEqual([
    ["Running program failed: Error: boom", undefined],
    [gone, { urn: "a resource's" }],
  ]);
});
