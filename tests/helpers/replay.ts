// A read-only replay of real API answers (tests/fixtures/real-answers/answers.json, recorded by
// linode/linodego and renamed to this API; see that directory's README). Standard library only.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** One recorded answer of the API, renamed to this API's names. */
export interface Answer {
  /** `<kind>-<variant>`, unique in the file. */
  name: string;
  /** What the body is: `instance`, `disks`, `config`, `error`, ... */
  kind: string;
  /** The cassette in linode/linodego the answer comes from (`test/integration/fixtures/...yaml`). */
  cassette: string;
  /** Index of the interaction in the cassette's `interactions`. */
  interaction: number;
  /** Set when the cassette was read at an older commit than the file's `source` (the commit named there). */
  commit?: string;
  /** The request URL as recorded (Linode's names, host, `/v4beta`, query string). */
  originalUrl: string;
  /** The recorded request's method. */
  method: string;
  /** The recorded request's path, renamed: no `/v4`, no query string, ids URL-decoded (`/images/compute/ubuntu22.04`). */
  path: string;
  /** For a create or update answer whose body is the record: the path a GET of that record reads. */
  itemPath?: string;
  /** Answers that belong together (one instance with its disks and configs...); see the README. */
  group?: string;
  status: number;
  /** The answer's JSON body; null when the answer had none (HTTP 204). */
  body: unknown;
  /** The recorded request body (renamed), for non-GET answers. */
  requestBody?: unknown;
  /** For a list answer cut to its first items: the recorded envelope's numbers. */
  trimmed?: { originalItems: number; originalResults: number; originalPages: number; originalPage: number };
}

/** The whole fixture file. */
export interface AnswerFile {
  source: string;
  olderCommits?: Record<string, string>;
  renames: string[];
  answers: Answer[];
}

export const ANSWERS_FILE = join(__dirname, "..", "fixtures", "real-answers", "answers.json");

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isAnswer(v: unknown): v is Answer {
  return (
    isRecord(v) &&
    typeof v.name === "string" &&
    typeof v.kind === "string" &&
    typeof v.cassette === "string" &&
    typeof v.interaction === "number" &&
    typeof v.originalUrl === "string" &&
    typeof v.method === "string" &&
    typeof v.path === "string" &&
    typeof v.status === "number" &&
    "body" in v
  );
}

/** Reads and checks the fixture file. */
export function loadAnswerFile(file: string = ANSWERS_FILE): AnswerFile {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!isRecord(parsed) || typeof parsed.source !== "string" || !Array.isArray(parsed.renames) || !Array.isArray(parsed.answers)) {
    throw new Error(`${file}: not an answers file (source, renames, answers)`);
  }
  const answers: Answer[] = [];
  parsed.answers.forEach((a: unknown, i: number) => {
    if (!isAnswer(a)) throw new Error(`${file}: answer ${i} lacks name, kind, cassette, interaction, originalUrl, method, path, status or body`);
    answers.push(a);
  });
  const renames = parsed.renames.map(String);
  const olderCommits = isRecord(parsed.olderCommits) ? Object.fromEntries(Object.entries(parsed.olderCommits).map(([k, v]) => [k, String(v)])) : undefined;
  return { source: parsed.source, olderCommits, renames, answers };
}

/** The recorded answers (answers.json). */
export function loadAnswers(): Answer[] {
  return loadAnswerFile().answers;
}

/** The answer of that name; throws when there is none. */
export function answerNamed(answers: Answer[], name: string): Answer {
  const a = answers.find((x) => x.name === name);
  if (!a) throw new Error(`no recorded answer named ${name}`);
  return a;
}

/** The answers of one group (see the README), e.g. `A`: one instance with its configs, disks and backups. */
export function answerGroup(answers: Answer[], group: string): Answer[] {
  return answers.filter((a) => a.group === group);
}

export interface ReplayServer {
  /** Base URL, ending in `/v4`. */
  url: string;
  /** Every request received, in order: method and path (without `/v4` and the query string, URL-decoded). */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

const NOT_FOUND = { errors: [{ reason: "Not found" }] };
const READ_ONLY = { errors: [{ reason: "replay server: read only" }] };
// The API's own answer to a bad token (TestReservedIPAddresses_InsufficientPermissions.yaml).
const INVALID_TOKEN = { errors: [{ reason: "Invalid Token" }] };

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The request's path as answers name it: without `/v4`, without the query string, decoded, no trailing slash. */
function requestPath(url: string): { path: string; versioned: boolean } {
  const pathname = url.split("?")[0] ?? "";
  const versioned = pathname === "/v4" || pathname.startsWith("/v4/");
  let path = decodePath(versioned ? pathname.slice(3) : pathname);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return { path: path === "" ? "/" : path, versioned };
}

/**
 * Serves the answers read-only on 127.0.0.1 (a free port): a GET whose path equals an answer's `path`
 * (a recorded GET) gets that answer's status and body, whatever its query string (so a list answer
 * answers every `page`/`page_size`); failing that, a GET of a create or update answer's `itemPath` gets
 * that answer. The first matching answer wins. Any other GET gets 404 `{"errors":[{"reason":"Not found"}]}`;
 * any other method gets 405 `{"errors":[{"reason":"replay server: read only"}]}`. With `token`, a request
 * without `Authorization: Bearer <token>` gets the API's 401. Every request is recorded in `requests`.
 */
export async function replayServer(answers: Answer[], opts: { token?: string } = {}): Promise<ReplayServer> {
  const gets = new Map<string, Answer>();
  const items = new Map<string, Answer>();
  for (const a of answers) {
    if (a.method.toUpperCase() === "GET") {
      if (!gets.has(a.path)) gets.set(a.path, a);
    } else if (a.itemPath !== undefined && !items.has(a.itemPath)) {
      items.set(a.itemPath, a);
    }
  }
  const requests: Array<{ method: string; path: string }> = [];

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    if (body === null || body === undefined) {
      res.writeHead(status);
      res.end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const { path, versioned } = requestPath(req.url ?? "/");
    requests.push({ method, path });
    // Drain any request body before answering.
    req.resume();
    if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
      send(res, 401, INVALID_TOKEN);
      return;
    }
    if (method !== "GET") {
      send(res, 405, READ_ONLY);
      return;
    }
    const answer = versioned ? (gets.get(path) ?? items.get(path)) : undefined;
    if (!answer) {
      send(res, 404, NOT_FOUND);
      return;
    }
    send(res, answer.status, answer.body);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v4`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
