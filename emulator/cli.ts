#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseFaultSpec } from "./faults";
import { HttpError, messageOf } from "./http";
import { QUOTA_MINIMUMS, QUOTA_NAMES, type Quotas } from "./db/quota";

const QUOTA_WHY: Record<keyof Quotas, string> = {
  records: "an empty account holds 2: its owner and root token",
  bytes: "an empty account's records take about 500",
  users: "its owner",
};
import { startEmulator } from "./server";

const usage = `Usage: compute-emulator [--port N] [--host ADDR] [--token T] [--state FILE | --database URL] [--fixture FILE] [--speed F] [--faults SPEC] [--rate-limit N]
       [--max-connections N] [--idle-timeout S] [--quota-records N] [--quota-bytes N] [--quota-users N]

A local emulator of the compute API, for offline development and tests.
  --port N      port to listen on (0, the default, picks a free one)
  --host ADDR   address to listen on (default 127.0.0.1)
  --token T     the bearer token to accept, with every scope: the main account's root token (the
                one an earlier start gave the state is revoked; tokens made through the API stay);
                when omitted, the one the state has, or a random one
  --state FILE  keep the state in FILE (a SQLite database) across restarts; a JSON state
                file of an earlier release is moved into it
  --database URL  keep the state in a PostgreSQL database (postgres://user:pass@host:port/db),
                which several emulators may serve at once (docs/emulator-team.md)
  --fixture FILE  start the account from FILE (docs/fixtures.md: records exported with
                GET /__emulator/export, or API requests written by hand), when it starts empty
  --speed F     how long status changes take: 1 (the default) is as long as the real API's
                (an instance create 74 s, a database 11 min); 0.1 for a demo (a create in
                7 s, a database in about a minute); 0.001 near-instant; 0 instant
  --faults SPEC inject faults: seed=N,rate=R[,kinds=429+500+502+503+drop+slow+lost][,slow=MS]
                [,retryAfter=S][,match=REGEX on "METHOD /path"] (default: every /v4 request);
                also at run time with PUT /__emulator/faults
  --rate-limit N  at most N requests per second per token, in bursts of up to N; beyond it,
                429 with Retry-After (also at run time with PUT /__emulator/rate-limit)
  --max-connections N  at most N connections open at once (default 1000); a new one beyond
                it is answered 503 and closed, until one closes
  --idle-timeout S  close a connection with no request in flight after S seconds (default 10):
                one kept alive after its answer, or one that sends no request's headers in time
  --quota-records N, --quota-bytes N, --quota-users N  what each account may hold: its records
                (but events; default 20000, at least 2), their size as JSON (default 16777216, at
                least 4096) and its users (default 100, at least 1); a change past one is 403 naming it
It prints the URL and token it serves, as JSON on one line, then serves until interrupted.`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", default: "0" },
        host: { type: "string", default: "127.0.0.1" },
        token: { type: "string" },
        state: { type: "string" },
        database: { type: "string" },
        speed: { type: "string", default: "1" },
        faults: { type: "string" },
        "rate-limit": { type: "string" },
        fixture: { type: "string" },
        "max-connections": { type: "string" },
        "idle-timeout": { type: "string" },
        "quota-records": { type: "string" },
        "quota-bytes": { type: "string" },
        "quota-users": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`compute-emulator: ${messageOf(e)}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`compute-emulator: --port must be an integer from 0 to 65535, got "${values.port}"`);
    process.exit(2);
  }
  const speed = Number(values.speed);
  if (!Number.isFinite(speed) || speed < 0) {
    console.error(`compute-emulator: --speed must be a number, 0 or more, got "${values.speed}"`);
    process.exit(2);
  }
  const rateLimit = values["rate-limit"] === undefined ? undefined : Number(values["rate-limit"]);
  if (rateLimit !== undefined && !(Number.isFinite(rateLimit) && rateLimit > 0)) {
    console.error(`compute-emulator: --rate-limit must be a number of requests per second above 0, got "${values["rate-limit"]}"`);
    process.exit(2);
  }
  const maxConnections = values["max-connections"] === undefined ? undefined : Number(values["max-connections"]);
  if (maxConnections !== undefined && !(Number.isInteger(maxConnections) && maxConnections >= 1)) {
    console.error(`compute-emulator: --max-connections must be a whole number, 1 or more, got "${values["max-connections"]}"`);
    process.exit(2);
  }
  const idleSeconds = values["idle-timeout"] === undefined ? undefined : Number(values["idle-timeout"]);
  if (idleSeconds !== undefined && !(Number.isFinite(idleSeconds) && idleSeconds > 0)) {
    console.error(`compute-emulator: --idle-timeout must be a number of seconds above 0, got "${values["idle-timeout"]}"`);
    process.exit(2);
  }
  const connections = { max: maxConnections, idleMs: idleSeconds === undefined ? undefined : idleSeconds * 1000 };
  const quotas: Partial<Quotas> = {};
  for (const name of QUOTA_NAMES) {
    const given = values[`quota-${name}`];
    if (given === undefined) continue;
    const n = /^\d{1,15}$/.test(given) ? Number(given) : NaN;
    if (!(n >= QUOTA_MINIMUMS[name])) {
      console.error(`compute-emulator: --quota-${name} must be a whole number (digits), ${QUOTA_MINIMUMS[name]} or more (${QUOTA_WHY[name]}), got "${given}"`);
      process.exit(2);
    }
    quotas[name] = n;
  }
  let faults;
  try {
    faults = values.faults ? parseFaultSpec(values.faults) : undefined;
  } catch (e) {
    console.error(`compute-emulator: ${messageOf(e)}`);
    process.exit(2);
  }
  let fixture: unknown;
  if (values.fixture !== undefined) {
    try {
      fixture = JSON.parse(readFileSync(values.fixture, "utf8"));
    } catch (e) {
      console.error(`compute-emulator: --fixture ${values.fixture}: ${messageOf(e)}`);
      process.exit(2);
    }
  }
  let emu;
  try {
    emu = await startEmulator({
      port,
      host: values.host,
      token: values.token,
      stateFile: values.state,
      database: values.database ?? process.env.COMPUTE_EMULATOR_DATABASE,
      fixture,
      speed,
      faults,
      rateLimit,
      connections,
      quotas,
    });
  } catch (e) {
    // A state file that is not one, or cannot be written; a fixture refused; a port taken: one line, not a stack.
    console.error(`compute-emulator: ${values.fixture && e instanceof HttpError ? `--fixture ${values.fixture}: ` : ""}${messageOf(e)}`);
    process.exit(1);
  }
  console.log(JSON.stringify({ url: emu.url, token: emu.token }));
  const stop = () => {
    void emu.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
