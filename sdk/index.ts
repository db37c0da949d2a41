// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
// First: a failing program prints its error at once (sdk/stack-traces.ts).
import "./stack-traces";
// And no secret output in the engine's debug events (sdk/debug-redaction.ts).
import "./debug-redaction";
// And no error of the engine's own end after a failed run's (sdk/engine-shutdown.ts).
import "./engine-shutdown";
export * from "./instance";
export * from "./disk";
export * from "./config";
export * from "./interface";
export * from "./instanceSnapshot";
export * from "./vpc";
export * from "./subnet";
export * from "./image";
export * from "./mysqlDatabase";
export * from "./postgresDatabase";
export * from "./mysqlDatabaseSnapshot";
export * from "./postgresDatabaseSnapshot";
export * from "./sshKey";
export * from "./token";
export * from "./types";
export * from "./compat";
export * from "./lookups";
export * from "./reference";
