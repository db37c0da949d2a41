/**
 * The emulator's page (emulator/page.ts), in a real browser: headless Chromium (scripts/ensure-chromium: the
 * one on PATH, else Debian's package) driven by playwright-core. Checked through the page itself, as a person
 * uses it: signed in with the keyboard, it follows a program's requests as they run (resources by type with
 * their status and ids, events, requests), shows the faults in force, picks another account, says a refused
 * token; every value written as text; nothing loaded from anywhere but the emulator. It pages past the API's 500
 * a page with the keyboard, shows each request's time, duration and bodies (secrets redacted), and reads at a
 * phone's width (390 px: nothing wider than the screen). Screenshots are kept in .artifacts/ (emulator-page-*.png,
 * the desktop's and the phone's), the test's artifacts. Not skipped anywhere: without a Chromium it fails,
 * naming what to install.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Emulator } from "../../emulator/server";
import { call, ed25519Key, emulator, importSshKeys } from "../helpers/emulator";

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, "..", "..");
const ARTIFACTS = path.join(ROOT, ".artifacts");
const PASS = "teh83fx4tkoy4tfjzfycyhjk1b307op0ls7h1b3bt8kzxbngadj72jtomtjpybul";

let emu: Emulator;
let origin: string;
let browser: Browser;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  const executablePath = execFileSync(path.join(ROOT, "scripts", "ensure-chromium"), { encoding: "utf8" }).trim();
  // Slow enough that a person (and the test) sees an instance provisioning (1.6 s) and running 2.4 s after its
  // create: 0.3 when the create took 8 s at speed 1, 74 s now (50 s provisioning, 24 s booting).
  emu = await emulator({ speed: 0.3 * (8 / 74) });
  origin = emu.url.replace(/\/v4$/, "");
  browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await emu?.close();
});
beforeEach(async () => {
  page = await browser.newPage();
  await page.setViewportSize({ width: 1200, height: 1400 });
  page.on("request", (r) => void requested.push(r.url()));
});
afterEach(async () => {
  await page.close();
});

/** The page's tables by caption (its type, without the count): their rows' cells as text. */
const tables = (): Promise<Record<string, string[][]>> =>
  page.evaluate(() => {
    const out: Record<string, string[][]> = {};
    for (const t of Array.from(document.querySelectorAll("table"))) {
      const name = (t.caption?.textContent ?? "").replace(/ \(\d+\)$/, "");
      out[name] = Array.from(t.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent ?? ""));
    }
    return out;
  });
/** Waits until a table has a row with these cells (in any columns). */
const rowShown = (table: string, ...cells: string[]) =>
  page.waitForFunction(
    ([name, want]: [string, string[]]) =>
      Array.from(document.querySelectorAll("table")).some(
        (t) =>
          (t.caption?.textContent ?? "").replace(/ \(\d+\)$/, "") === name &&
          Array.from(t.tBodies[0].rows).some((r) => want.every((w) => Array.from(r.cells).some((c) => c.textContent === w))),
      ),
    [table, cells] as [string, string[]],
    { timeout: 20_000 },
  );
const focused = () => page.evaluate(() => document.activeElement?.id ?? "");
const signIn = async (token: string) => {
  const answer = await page.goto(`${origin}/`);
  expect(answer?.headers()["content-security-policy"]).toMatch(/default-src 'none'/);
  expect(await focused()).toBe("token");
  await page.keyboard.type(token);
  await page.keyboard.press("Enter");
};

test("signed in with the keyboard, it follows a program as it runs: resources, their status and ids, events, requests, faults", async () => {
  await signIn(emu.token);
  await page.waitForFunction(() => document.getElementById("account")?.textContent === "main (account 1)", undefined, { timeout: 10_000 });
  expect(await focused()).toBe("pause");
  // A program's requests, as a Pulumi program would send them.
  const key = await call(emu, "POST", "/profile/sshkeys", { body: { label: "<b>not bold</b>", ssh_key: ed25519Key(42) } });
  const net = await call(emu, "POST", "/vpcs", { body: { label: "app-net", region: "us-east", subnets: [{ label: "apps", ipv4: "10.0.1.0/24" }] } });
  const web = await call(emu, "POST", "/compute/instances", {
    body: { label: "web-1", region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: PASS },
  });
  expect([key.status, net.status, web.status]).toEqual([200, 200, 200]);
  await rowShown("Instances", String(web.body.id), "web-1", "provisioning");
  await rowShown("Events", "compute_create", "started");
  await rowShown("Requests", "POST", "/v4/compute/instances", "200");
  // The page's own requests (itself, its polls) are not in the log it shows.
  expect((await tables()).Requests.filter((r) => r[2] === "/" || r[2].endsWith("/overview"))).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, "emulator-page-running.png"), fullPage: true });
  await rowShown("Instances", String(web.body.id), "web-1", "running");
  await rowShown("Events", "compute_create", "finished");
  await rowShown("Events", "compute_boot", "finished");
  const shown = await tables();
  expect(shown.VPCs).toEqual([[String(net.body.id), "app-net", "", "us-east"]]);
  expect(shown.Subnets.map((r) => r.slice(1))).toEqual([["apps", "", "10.0.1.0/24 in app-net"]]);
  expect(shown.Disks.map((r) => r[3])).toEqual(expect.arrayContaining([expect.stringMatching(/ MB ext4 on web-1$/)]));
  // A label is text, never markup.
  expect(shown["SSH keys"].map((r) => r[1])).toEqual(["<b>not bold</b>"]);
  expect(await page.evaluate(() => document.querySelectorAll("main b").length)).toBe(0);
  // The faults in force, as set while the page is open.
  await call(emu, "PUT", "/__emulator/faults", { body: { seed: 3, rules: [{ match: "^DELETE ", rate: 0.5, kinds: ["503"] }] } });
  await page.waitForFunction(() => (document.getElementById("faults")?.textContent ?? "").includes("^DELETE "), undefined, { timeout: 10_000 });
  await call(emu, "DELETE", "/__emulator/faults");
  // Updates pause and resume from the keyboard (the button has the focus).
  await page.keyboard.press("Space");
  expect(await page.evaluate(() => [document.getElementById("pause")?.getAttribute("aria-pressed"), document.getElementById("pause")?.textContent])).toEqual([
    "true",
    "Resume updates",
  ]);
  await page.keyboard.press("Tab");
  expect(await focused()).toBe("refresh");
  await page.screenshot({ path: path.join(ARTIFACTS, "emulator-page-done.png"), fullPage: true });
  // Nothing but the emulator was asked for anything.
  expect(requested.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
});

test("the emulator's token picks another account with the keyboard; an account's token sees its own only", async () => {
  const made = await call(emu, "POST", "/__emulator/accounts", { body: { label: "job-7" } });
  await call(emu, "POST", "/profile/sshkeys", { token: made.body.token, body: { label: "job-key", ssh_key: ed25519Key(7) } });
  await signIn(emu.token);
  await page.waitForFunction(() => !document.getElementById("choose")?.hidden, undefined, { timeout: 10_000 });
  await page.focus("#accounts");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.getElementById("account")?.textContent === "job-7 (account 2)", undefined, { timeout: 10_000 });
  await rowShown("SSH keys", "job-key");
  await page.close();
  page = await browser.newPage();
  await signIn(made.body.token);
  await rowShown("SSH keys", "job-key");
  expect(await page.evaluate(() => document.getElementById("choose")?.hidden)).toBe(true);
  expect((await tables()).Instances).toEqual([["none"]]);
});

test("a refused token is said, and the sign-in form comes back with the focus", async () => {
  await signIn("0123456789abcdef0123456789abcdef");
  await page.waitForFunction(() => /refused the token \(401\)/.test(document.getElementById("status")?.textContent ?? ""), undefined, { timeout: 10_000 });
  expect(await page.evaluate(() => document.getElementById("sign-in")?.hidden)).toBe(false);
  expect(await focused()).toBe("token");
});

/** True when nothing of the page is wider than the window (no sideways scrolling of the page itself). */
const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test("it pages past 500 with the keyboard, shows each request's time, duration and bodies (no secret), and reads at a phone's width", async () => {
  const made = await call(emu, "POST", "/__emulator/accounts", { body: { label: "many" } });
  const token = made.body.token as string;
  await importSshKeys(emu, 520, token);
  const web = await call(emu, "POST", "/compute/instances", {
    token,
    body: { label: "web-with-a-rather-long-label-to-wrap", region: "us-east", type: "g6-nanode-1", image: "compute/debian12", root_pass: PASS },
  });
  expect(web.status).toBe(200);
  await signIn(token);
  await rowShown("SSH keys", "key-1");
  const captions = () => page.evaluate(() => Array.from(document.querySelectorAll("caption")).map((c) => c.textContent));
  expect(await captions()).toContain("SSH keys (520)");
  expect((await tables())["SSH keys"]).toHaveLength(500);
  expect(
    await page.evaluate(() => [
      document.getElementById("page-sshkeys")?.textContent,
      (document.getElementById("previous-sshkeys") as HTMLButtonElement).disabled,
    ]),
  ).toEqual(["Page 1 of 2", true]);
  // Next, from the keyboard: the second page (the keys past 500), the focus kept on the pager.
  await page.focus("#next-sshkeys");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("page-sshkeys")?.textContent === "Page 2 of 2", undefined, { timeout: 10_000 });
  expect((await tables())["SSH keys"].map((r) => r[1])).toEqual(Array.from({ length: 20 }, (_, i) => `key-${501 + i}`));
  expect(await focused()).toBe("previous-sshkeys");
  // It stays on that page across updates.
  await page.waitForTimeout(1500);
  expect(await page.evaluate(() => document.getElementById("page-sshkeys")?.textContent)).toBe("Page 2 of 2");
  // The requests: when each arrived, how long it took, its bodies as the log keeps them, the root password redacted.
  await rowShown("Requests", "POST", "/v4/compute/instances", "200");
  const created = (await tables()).Requests.find((r) => r[1] === "POST" && r[2] === "/v4/compute/instances") ?? [];
  expect(created[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
  expect(Number(created[4])).toBeGreaterThanOrEqual(0);
  await page.evaluate(() => document.querySelectorAll("#requests details").forEach((d) => ((d as HTMLDetailsElement).open = true)));
  expect(created[6]).toContain('"root_pass":"[redacted]"');
  expect(created[6]).toContain("web-with-a-rather-long-label-to-wrap");
  expect(await page.evaluate((p) => document.body.textContent?.includes(p), PASS)).toBe(false);
  expect(await fits()).toBe(true);
  await page.screenshot({ path: path.join(ARTIFACTS, "emulator-page-desktop.png"), fullPage: true });
  // At a phone's width: nothing wider than the screen; a wide table scrolls in its own box.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(1200);
  expect(await fits()).toBe(true);
  expect(
    await page.evaluate(() =>
      Array.from(document.querySelectorAll("#view > *, .part, .scroll, nav, dl")).every((el) => el.getBoundingClientRect().right <= window.innerWidth + 0.5),
    ),
  ).toBe(true);
  await page.screenshot({ path: path.join(ARTIFACTS, "emulator-page-phone.png"), fullPage: true });
  await page.screenshot({ path: path.join(ARTIFACTS, "emulator-page-phone-top.png") });
  // The sign-in form fits too.
  await page.click("#sign-out");
  expect(await fits()).toBe(true);
});
