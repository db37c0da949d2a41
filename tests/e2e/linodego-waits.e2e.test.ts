/**
 * linodego's waiting helpers, run against the emulator, return when the real API's would (issue 46): the Go
 * module tests/go/linodego runs linodego (the real API's Go client, from the module proxy, the version of the
 * recorded cassettes) through a renaming reverse proxy (linode → compute names in paths, bodies and X-Filter,
 * and back in the answers) against the emulator's command started here. Its tests wait with linodego's own
 * helpers: WaitForEventFinished (linode_create, linode_boot, linode_shutdown, disk_create, disk_imagize,
 * database_create), WaitForInstanceStatus, WaitForInstanceDiskStatus, WaitForImageStatus,
 * WaitForDatabaseStatus, WaitForResourceFree and the event pollers' WaitForFinished; each must return without
 * error, well within its timeout, having polled while its operation was under way, and leave the resource as
 * the real API shows it once the operation is over.
 *
 * Needs Go and the modules of tests/go/linodego/go.sum in the Go module cache or the proxy (the first run
 * downloads them); without Go the suite fails, naming Go (`COMPUTE_SKIP_GO=1` skips it outside CI:
 * tests/helpers/go.ts).
 */
import { randomBytes } from "node:crypto";
import { describeWithGo } from "../helpers/go";
import { ensureBuilt, linodegoTests, LINODEGO_SPEED, LINODEGO_TESTS, startEmulatorCli, type EmulatorProcess } from "../helpers/linodego";

jest.setTimeout(900_000);

describeWithGo("linodego-waits.e2e")("linodego's waiting helpers against the emulator", () => {
  let emu: EmulatorProcess;

  beforeAll(async () => {
    ensureBuilt();
    emu = await startEmulatorCli(randomBytes(16).toString("hex"), ["--speed", LINODEGO_SPEED]);
  });
  afterAll(() => {
    emu?.child.kill("SIGTERM");
  });

  test("go test in tests/go/linodego: every helper returns, in time, once its operation is over", async () => {
    const { code, output, seconds } = await linodegoTests(emu.url, emu.token);
    if (code !== 0) throw new Error(`go test ./... in tests/go/linodego failed (${String(code)}, after ${seconds} s):\n${output}`);
    // Every test ran against the emulator: none skipped (a test skips only without one).
    for (const name of LINODEGO_TESTS) expect(output).toContain(`--- PASS: ${name} (`);
    expect(output).not.toContain("--- SKIP");
  });
});
