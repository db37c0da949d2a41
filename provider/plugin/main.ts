#!/usr/bin/env node
/**
 * `pulumi-resource-compute`: the engine starts it with its own address as the argument and reads the
 * port it prints. Only the port goes to stdout; everything else the provider says goes to stderr.
 *
 * Started by hand with no engine address (`node --inspect dist/provider/plugin/main.js`, under a debugger),
 * it prints its port the same way and waits: `PULUMI_DEBUG_PROVIDERS=compute:<port> pulumi up` makes the
 * engine attach to it (the Attach call gives the engine's address) instead of starting a plugin of its own.
 */
import { cancelOnSignals } from "../lifecycle/cancel";
import { timedStart } from "./rpc-times";
import { engineAddressOf, serve } from "./server";

// A terminal's Ctrl-C reaches every process of the group: the waits end, the operations answer.
cancelOnSignals();

process.on("unhandledRejection", (e) => console.error(e));

const engineAddress = engineAddressOf(process.argv.slice(2));

serve({ engineAddress }).then(
  ({ port }) => {
    process.stdout.write(`${port}\n`);
    timedStart();
    if (engineAddress === undefined) {
      console.error(`pulumi-resource-compute: no engine address given: waiting for an engine to attach (PULUMI_DEBUG_PROVIDERS=compute:${port})`);
    }
  },
  (e: unknown) => {
    console.error(`pulumi-resource-compute: cannot start: ${(e as Error).message}`);
    process.exit(1);
  },
);
