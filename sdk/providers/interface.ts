// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// The dynamic provider of Interface: the shim (sdk/shim.ts) as this module's exports. Pulumi writes a
// dynamic provider into every resource's state (`__provider`); a module of an installed package it writes
// as `require("pulumi-compute/dist/sdk/providers/interface.js")`, a line instead of the shim's code. So
// this file's path is part of every state made with it: never move or rename it.
import { shim } from "../shim";

export = shim("Interface");
