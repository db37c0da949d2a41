#!/usr/bin/env node
import { parseArgs } from "node:util";
import { startEmulator } from "./server";

const usage = `Usage: compute-emulator [--port N] [--host ADDR] [--token T] [--state FILE]

A local emulator of the compute API, for offline development and tests.
  --port N      port to listen on (0, the default, picks a free one)
  --host ADDR   address to listen on (default 127.0.0.1)
  --token T     the bearer token to accept, with every scope (random when omitted)
  --state FILE  keep the state in FILE across restarts
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
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`compute-emulator: ${(e as Error).message}\n\n${usage}`);
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
  const emu = await startEmulator({ port, host: values.host, token: values.token, stateFile: values.state });
  console.log(JSON.stringify({ url: emu.url, token: emu.token }));
  const stop = () => {
    void emu.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
