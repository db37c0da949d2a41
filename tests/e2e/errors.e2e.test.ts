/**
 * Failing runs end at once, with the message once and no stack trace of ours, through the plain CLI:
 * - an error thrown inside an `apply` of a program with no resource of ours (tests/programs/errors): the
 *   Node.js language host that scripts/ensure-pulumi builds preloads the stack-trace guard (without it,
 *   Node's colouring of @pulumi/pulumi's mapped frames runs out of memory first: half a minute and more);
 * - settings that cannot work fail `pulumi preview` before anything is planned, naming the config key and
 *   the environment variable, and send nothing.
 * (How long a failing program takes is measured by `npm run bench`, section "failing programs".)
 */
import type { Emulator } from "../../emulator/server";
import { emulator } from "../helpers/emulator";
import { TestStack } from "../helpers/pulumi";

jest.setTimeout(300_000);

let emu: Emulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(async () => {
  await emu.close();
});

/** How many times `text` appears in `output`. */
const count = (output: string, text: string) => output.split(text).length - 1;

describe("a program that throws", () => {
  let stack: TestStack;
  beforeAll(() => {
    stack = new TestStack("tests/programs/errors", `errors-${process.pid}`);
  });
  afterAll(() => stack.cleanup());

  test("inside an apply: the error is shown with the program's frame, and no frame that hangs Node's colouring", async () => {
    const r = await stack.run("preview", { config: { fail: "apply" }, flags: ["--diff"] });
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("failed with an unhandled exception");
    expect(r.output).toMatch(/Error: boom inside an apply\n\s+at .*index\.js:7/);
    // @pulumi/pulumi's source maps name `node_modules/@pulumi/output.ts`: printed only when the guard was not
    // loaded, after Node's colouring of that path ran out of memory.
    expect(r.output).not.toContain("node_modules/@pulumi/output.ts");
    // Said once.
    expect(count(r.output, "Error: boom inside an apply")).toBe(1);
  });

  test("at the top level: the same", async () => {
    const r = await stack.run("preview", { config: { fail: "top" }, flags: ["--diff"] });
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/Error: boom at the top level\n\s+at .*index\.js:5/);
  });
});

describe("settings that cannot work fail the preview", () => {
  const noEnv = { COMPUTE_TOKEN: "", COMPUTE_API_URL: "" };

  test("the dynamic classes: no token names compute:token and COMPUTE_TOKEN; nothing is sent", async () => {
    const s = new TestStack("sshkey", `errors-token-${process.pid}`, { config: { "compute:apiUrl": emu.url }, env: noEnv });
    try {
      emu.log.length = 0;
      const r = await s.run("preview", { flags: ["--diff"] });
      expect(r.code).not.toBe(0);
      expect(r.output).toMatch(/No API token is set: run `pulumi config set --secret compute:token <token>` or set the COMPUTE_TOKEN environment variable/);
      expect(count(r.output, "No API token is set")).toBe(1);
      expect(r.output).not.toMatch(/\n\s+at .*:\d+:\d+/); // no stack trace
      expect(emu.log).toEqual([]);

      // The variable alone is enough.
      const withEnv = await s.run("preview", { env: { COMPUTE_TOKEN: emu.token } });
      expect(withEnv.code).toBe(0);
    } finally {
      s.cleanup();
    }
  });

  test("the dynamic classes: an apiUrl that does not parse names compute:apiUrl and COMPUTE_API_URL", async () => {
    const s = new TestStack("sshkey", `errors-url-${process.pid}`, {
      config: { "compute:apiUrl": "localhost:8080/v4" },
      secrets: { "compute:token": emu.token },
    });
    try {
      const r = await s.run("preview", { flags: ["--diff"] });
      expect(r.code).not.toBe(0);
      expect(r.output).toMatch(/compute:apiUrl \(or COMPUTE_API_URL\) must be an http\(s\) URL/);
      expect(r.output).not.toContain(emu.token);
    } finally {
      s.cleanup();
    }
  });
});
