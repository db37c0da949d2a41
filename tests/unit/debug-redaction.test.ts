/**
 * The debug-event guard (sdk/debug-redaction.ts): @pulumi/pulumi logs the raw answers of its resource RPCs at
 * debug level, outputs in plain text, secrets too; `pulumi up --json` prints those events. The guard cuts the
 * answer and leaves every other message as it is. (tests/e2e/database checks an `up --json` transcript.)
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { installDebugRedaction, withoutAnswer } from "../../sdk/debug-redaction";

const SECRET = "4dabf18193072939515e22adb298388d,,,1b47061264138c4ac30d75fd1eb44270,value,,,sk399hFSlwDKBZchJJxSe80u";

test("an RPC answer's dump is cut, the call and its error kept", () => {
  for (const call of [
    "RegisterResource RPC finished: resource:app-db[compute:index:MysqlDatabase]",
    "Invoke RPC finished: tok=compute:index:getDatabase",
    "RegisterResourceOutputs RPC finished: urn=urn:pulumi:s::p::pulumi:pulumi:Stack::p-s",
  ]) {
    const out = withoutAnswer(`${call}; err: null, resp: urn:x,2,password,${SECRET}\nport,3306`);
    expect(out).toBe(`${call}; err: null, resp: [left out: it holds outputs in plain text]`);
  }
  const failed = withoutAnswer("ReadResource RPC finished: r; err: Error: 14 UNAVAILABLE: gone, resp: undefined");
  expect(failed).toContain("err: Error: 14 UNAVAILABLE: gone");
});

test("other debug messages pass unchanged", () => {
  for (const m of ["RegisterResource RPC prepared: t=compute:index:Vpc, name=net", "resp: not an RPC answer", "Invoke RPC finished without answer"]) {
    expect(withoutAnswer(m)).toBe(m);
  }
});

test("installed once on a log module, every debug message goes through it", async () => {
  const seen: string[] = [];
  const log = { debug: async (m: string) => void seen.push(m) };
  installDebugRedaction(log);
  installDebugRedaction(log); // a second copy of the package: no second wrapper
  await log.debug(`RegisterResource RPC finished: x; err: null, resp: ${SECRET}`);
  await log.debug("waiting for RPCs");
  expect(seen).toEqual(["RegisterResource RPC finished: x; err: null, resp: [left out: it holds outputs in plain text]", "waiting for RPCs"]);
});

test("the package installs it on the @pulumi/pulumi that registers its resources (a fresh process)", () => {
  const script = `
    const before = require("@pulumi/pulumi/log").debug;
    require(${JSON.stringify(require.resolve("../../dist/sdk/index.js"))});
    const log = require("@pulumi/pulumi/log");
    process.stdout.write(JSON.stringify({ installed: log[Symbol.for("pulumi-compute.debugRedaction")] === true, wrapped: log.debug !== before }));
  `;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: path.resolve(__dirname, "..", ".."), timeout: 60_000 });
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toEqual({ installed: true, wrapped: true });
});
