/**
 * provider/transport/http.ts: undici's Agent and request without the rest of undici. Loading it in a fresh
 * Node.js loads none of undici's web modules (fetch, WebSocket, cookies) and not Node's web crypto or its own
 * copy of undici, which undici's index loads; and a request through it answers as undici's own does.
 */
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Agent, request } from "../../provider/transport/http";

const ROOT = path.resolve(__dirname, "..", "..");

/** The modules a fresh node loads for `code` (run from the built dist/). */
function loaded(code: string): { files: string[]; builtins: string[] } {
  const out = execFileSync(
    process.execPath,
    ["-e", `${code}; console.log(JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList }))`],
    { cwd: ROOT, encoding: "utf8" },
  );
  return JSON.parse(out) as { files: string[]; builtins: string[] };
}

test("loading it loads undici's Agent and request, not its web modules, Node's web crypto or Node's own undici", () => {
  const slim = loaded(`require("./dist/provider/transport/http")`);
  const undiciFiles = slim.files.filter((f) => f.includes(`${path.sep}undici${path.sep}`));
  expect(undiciFiles.length).toBeGreaterThan(0);
  expect(undiciFiles.filter((f) => f.includes(`${path.sep}lib${path.sep}web${path.sep}`))).toEqual([]);
  expect(slim.builtins.filter((m) => /internal\/deps\/undici|internal\/crypto\/webcrypto/.test(m))).toEqual([]);
  // What it spares: undici's index loads them.
  const full = loaded(`require("undici")`);
  expect(full.files.some((f) => f.includes(`${path.sep}lib${path.sep}web${path.sep}`))).toBe(true);
  expect(full.builtins.some((m) => /internal\/deps\/undici|internal\/crypto\/webcrypto/.test(m))).toBe(true);
});

test("a request through it: the method, path with query, headers and body sent; the status, headers and body answered", async () => {
  const seen: Array<{ method?: string; url?: string; type?: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, type: req.headers["content-type"], body });
      res.writeHead(201, { "x-answer": "yes" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dispatcher = new Agent();
  try {
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v4/things?page=2`);
    const res = await request(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}', dispatcher });
    expect([res.statusCode, res.headers["x-answer"], await res.body.text()]).toEqual([201, "yes", '{"ok":true}']);
    expect(seen).toEqual([{ method: "POST", url: "/v4/things?page=2", type: "application/json", body: '{"a":1}' }]);
  } finally {
    await dispatcher.close();
    server.close();
  }
});
