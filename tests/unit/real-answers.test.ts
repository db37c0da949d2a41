import { answerGroup, answerNamed, loadAnswerFile, replayServer, type Answer } from "../helpers/replay";

const file = loadAnswerFile();
const answers = file.answers;

// Every kind of record the fixtures were asked to cover and that the cassettes hold (see the README for
// what they do not hold: a GET of one region, of one interface, of one swap disk).
const EXPECTED_KINDS = [
  "instance",
  "disk",
  "disks",
  "config",
  "configs",
  "interfaces",
  "interface",
  "backups",
  "backup",
  "image",
  "vpc",
  "subnet",
  "subnets",
  "vpc-ips",
  "mysql",
  "postgresql",
  "database-credentials",
  "database-ssl",
  "database-backups",
  "database-backup",
  "databases",
  "engines",
  "engine",
  "sshkey",
  "sshkeys",
  "token",
  "tokens",
  "profile",
  "grants",
  "regions",
  "type",
  "types",
  "kernel",
  "kernels",
  "error",
];

/** Every string in a JSON value, keys included, with where it is. */
function strings(v: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof v === "string") out.push([at, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, `${at}[${i}]`, out));
  else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      out.push([`${at} (key)`, k]);
      strings(x, `${at}.${k}`, out);
    }
  }
  return out;
}

function isList(body: unknown): body is { data: unknown[]; page: number; pages: number; results: number } {
  return typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data);
}

describe("real answers: the fixture file", () => {
  test("names its source commit and the renames", () => {
    expect(file.source).toMatch(/^linode\/linodego [0-9a-f]{40} test\/integration\/fixtures$/);
    expect(file.renames.length).toBeGreaterThan(5);
    expect(file.renames.join("\n")).toMatch(/lish_auth_method -> console_auth_method/);
  });

  test("every answer has a unique name, a kind, a path, a status, a body and its origin", () => {
    const names = new Set<string>();
    for (const a of answers) {
      expect(names.has(a.name)).toBe(false);
      names.add(a.name);
      expect(a.name.startsWith(a.kind === "error" ? "error-" : "")).toBe(true);
      expect(a.kind).toMatch(/^[a-z-]+$/);
      expect(a.path.startsWith("/")).toBe(true);
      expect(a.path).not.toMatch(/[?%]/);
      if (a.itemPath !== undefined) {
        expect(a.itemPath.startsWith("/")).toBe(true);
        expect(a.method).not.toBe("GET");
      }
      expect(Number.isInteger(a.status)).toBe(true);
      expect("body" in a).toBe(true);
      expect(a.body === null).toBe(a.status === 204);
      expect(a.cassette).toMatch(/^test\/integration\/fixtures\/[A-Za-z0-9_]+\.yaml$/);
      expect(Number.isInteger(a.interaction) && a.interaction >= 0).toBe(true);
      expect(a.originalUrl).toMatch(/^https:\/\/api\.linode\.com\/v4(beta)?\//);
      if (a.commit !== undefined) {
        expect(a.commit).toMatch(/^[0-9a-f]{40}$/);
        expect(file.olderCommits?.[a.commit]).toBeDefined();
      }
    }
  });

  test("nothing in paths or bodies still says linode or carries a /v4 prefix", () => {
    const found: string[] = [];
    for (const a of answers) {
      const all: Array<[string, string]> = [
        ["path", a.path],
        ...(a.itemPath === undefined ? [] : ([["itemPath", a.itemPath]] as Array<[string, string]>)),
        ...strings(a.body, "body"),
        ...strings(a.requestBody, "requestBody"),
      ];
      for (const [at, s] of all) {
        if (/linode/i.test(s)) found.push(`${a.name} ${at}: ${s}`);
        if (/^\/v4(beta)?(\/|$)/.test(s)) found.push(`${a.name} ${at}: ${s}`);
      }
    }
    expect(found).toEqual([]);
  });

  test("the renamed names are there: compute_id, console_auth_method, compute/ ids, /compute/ paths", () => {
    const text = JSON.stringify(answers.map((a) => [a.path, a.body]));
    expect(text).toContain('"compute_id"');
    expect(text).toContain('"console_auth_method"');
    expect(text).toContain('"add_computes"');
    expect(text).toContain('"computes"');
    expect(text).toContain('"compute/latest-64bit"');
    expect(answerNamed(answers, "kernel-latest-64bit").path).toBe("/compute/kernels/compute/latest-64bit");
    expect(answerNamed(answers, "image-public").path).toBe("/images/compute/ubuntu22.04");
    expect(answerNamed(answers, "type").path).toBe("/compute/types/g6-standard-1");
  });

  test("every kind that was asked for and recorded is present", () => {
    const kinds = new Set(answers.map((a) => a.kind));
    expect(EXPECTED_KINDS.filter((k) => !kinds.has(k))).toEqual([]);
  });

  test("variants: a config with disks, one without, vlan and vpc interfaces with and without nat_1_1", () => {
    const cfgWithDisks = answerNamed(answers, "config-with-disks").body as any;
    expect(cfgWithDisks.devices.sda.disk_id).toEqual(expect.any(Number));
    const noDisks = answerNamed(answers, "config-create-no-disks").body as any;
    expect(Object.keys(noDisks.devices).sort()).toEqual(["sda", "sdb", "sdc", "sdd", "sde", "sdf", "sdg", "sdh"]);
    expect(Object.values(noDisks.devices).every((d) => d === null)).toBe(true);
    const vlanCfg = (answerNamed(answers, "configs-vlan-with-disks").body as any).data[0];
    expect(vlanCfg.interfaces.map((i: any) => i.purpose)).toEqual(["vlan"]);
    const vpcOf = (name: string) => (answerNamed(answers, name).body as any).interfaces.find((i: any) => i.purpose === "vpc");
    expect(vpcOf("config-vpc-nat-null-no-disks").ipv4.nat_1_1).toBeNull();
    expect(typeof vpcOf("config-vpc-nat-set-reordered").ipv4.nat_1_1).toBe("string");
    const disks = (answerNamed(answers, "disks-ext4-and-swap").body as any).data.map((d: any) => d.filesystem);
    expect(disks).toEqual(["ext4", "swap"]);
    expect((answerNamed(answers, "instance-from-image").body as any).image).toMatch(/^compute\//);
    expect(answerNamed(answers, "token-create").body).toMatchObject({ token: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  test("list answers keep the envelope and results says how many items were kept", () => {
    for (const a of answers.filter((x) => isList(x.body))) {
      const b = a.body as { data: unknown[]; page: number; pages: number; results: number };
      expect(b.data.length).toBeLessThanOrEqual(5);
      expect(b.results).toBe(b.data.length);
      expect(typeof b.page).toBe("number");
      expect(typeof b.pages).toBe("number");
      if (a.trimmed) expect(a.trimmed.originalResults).toBeGreaterThan(b.results);
    }
  });

  test("the answers of one group name the same instance in their paths", () => {
    const groups = new Set(answers.map((a) => a.group).filter((g): g is string => g !== undefined));
    expect([...groups]).toEqual(expect.arrayContaining(["A", "B", "C", "D", "E"]));
    for (const g of groups) {
      const ids = new Set(
        answerGroup(answers, g)
          .map((a) => (a.itemPath ?? a.path).match(/^\/compute\/instances\/(\d+)/)?.[1])
          .filter((x): x is string => x !== undefined),
      );
      expect(ids.size).toBeLessThanOrEqual(1);
    }
    // Group A: an instance deployed from an image, its configs (one with its two disks), disks and backups.
    const a = answerGroup(answers, "A");
    const cfg = a.find((x) => x.kind === "config")!.body as any;
    const diskIds = (a.find((x) => x.kind === "disks")!.body as any).data.map((d: any) => d.id);
    expect([cfg.devices.sda.disk_id, cfg.devices.sdb.disk_id]).toEqual(diskIds);
  });
});

describe("real answers: the replay server", () => {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  test("serves an instance, 404s an unknown path, 405s a POST and records every request", async () => {
    const srv = await replayServer(answers);
    try {
      expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
      const inst = answerNamed(answers, "instance-from-image");
      const got = await get(`${srv.url}${inst.path}`);
      expect(got).toEqual({ status: 200, body: inst.body });

      expect(await get(`${srv.url}/compute/instances/424242`)).toEqual({ status: 404, body: { errors: [{ reason: "Not found" }] } });

      const post = await fetch(`${srv.url}/compute/instances`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ region: "us-iad", type: "g6-nanode-1" }),
      });
      expect(post.status).toBe(405);
      expect(await post.json()).toEqual({ errors: [{ reason: "replay server: read only" }] });

      expect(srv.requests).toEqual([
        { method: "GET", path: inst.path },
        { method: "GET", path: "/compute/instances/424242" },
        { method: "POST", path: "/compute/instances" },
      ]);
      expect(srv.requests.filter((r) => r.method !== "GET")).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });

  test("lists answer any page, ids may be URL-encoded, errors and 204 come as recorded, create answers serve their item", async () => {
    const srv = await replayServer(answers);
    try {
      const disks = answerNamed(answers, "disks-ext4-and-swap");
      expect(await get(`${srv.url}${disks.path}?page=2&page_size=25`)).toEqual({ status: 200, body: disks.body });
      const kernel = answerNamed(answers, "kernel-latest-64bit");
      expect(await get(`${srv.url}/compute/kernels/compute%2Flatest-64bit`)).toEqual({ status: 200, body: kernel.body });
      const missing = answerNamed(answers, "error-404-image");
      expect(await get(`${srv.url}${missing.path}`)).toEqual({ status: 404, body: missing.body });
      expect(await get(`${srv.url}/profile/grants`)).toEqual({ status: 204, body: undefined });
      const iface = answerNamed(answers, "interface-add-vpc-nat-null");
      expect(await get(`${srv.url}${iface.itemPath!}`)).toEqual({ status: 200, body: iface.body });
      // A create answer's own (collection) path is not served as a GET.
      expect((await get(`${srv.url}${answerNamed(answers, "token-create").path}`)).body).toEqual(answerNamed(answers, "tokens").body);
      // Outside /v4 nothing is served.
      expect((await get(srv.url.replace(/\/v4$/, "") + disks.path)).status).toBe(404);
    } finally {
      await srv.close();
    }
  });

  test("serves only the answers it is given, and checks the token when asked", async () => {
    const group: Answer[] = answerGroup(answers, "A");
    const srv = await replayServer(group, { token: "t0ken" });
    try {
      const inst = answerNamed(group, "instance-from-image");
      expect((await get(`${srv.url}${inst.path}`)).status).toBe(401);
      expect(await get(`${srv.url}${inst.path}`, { authorization: "Bearer t0ken" })).toEqual({ status: 200, body: inst.body });
      expect((await get(`${srv.url}/profile`, { authorization: "Bearer t0ken" })).status).toBe(404);
      expect(srv.requests).toHaveLength(3);
    } finally {
      await srv.close();
    }
  });
});
