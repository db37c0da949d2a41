#!/usr/bin/env node
/**
 * `pulumi-resource-compute`: the engine starts it with its own address as the argument and reads the
 * port it prints. Only the port goes to stdout; everything else the provider says goes to stderr.
 */
import { serve } from "./server";

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
