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
import { messageOf } from "../lifecycle/errors";
import { timedStart } from "./rpc-times";
import { engineAddressOf, serve } from "./server";

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  // Every other argument is the engine's (its address, --tracing, -v=9, --logtostderr...): taken as it comes.
  process.stdout.write(
    [
      "Usage: pulumi-resource-compute [ENGINE_ADDRESS]",
      "",
      "The compute provider plugin. The Pulumi engine starts it (it finds it installed, or downloads it from the",
      "release the SDK names), passes its own address and flags, and reads the port it prints; a person does not",
      "run it, but to debug it: started with no address, it prints its port and waits for an engine to attach",
      "(PULUMI_DEBUG_PROVIDERS=compute:<port> pulumi up: docs/plugin-debugging.md). Settings: compute:token and",
      "compute:apiUrl in the stack's config, or COMPUTE_TOKEN and COMPUTE_API_URL.",
      "  -h, --help   this text",
      "",
    ].join("\n"),
  );
  process.exit(0);
}

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
    console.error(`pulumi-resource-compute: cannot start: ${messageOf(e)}`);
    process.exit(1);
  },
);
