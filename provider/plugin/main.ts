#!/usr/bin/env node
/**
 * `pulumi-resource-compute`: the engine starts it with its own address as the argument and reads the
 * port it prints. Only the port goes to stdout; everything else the provider says goes to stderr.
 */
import { cancelOnSignals } from "../cancel";
import { serve } from "./server";

// A terminal's Ctrl-C reaches every process of the group: the waits end, the operations answer.
cancelOnSignals();

process.on("unhandledRejection", (e) => console.error(e));

serve().then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
  },
  (e: unknown) => {
    console.error(`pulumi-resource-compute: cannot start: ${(e as Error).message}`);
    process.exit(1);
  },
);
