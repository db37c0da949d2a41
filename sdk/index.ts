// Generated from the resource definitions (provider/resources) by `npm run gen:schema`: do not edit.
export * from "./instance";
export * from "./disk";
export * from "./config";
export * from "./interface";
export * from "./vpc";
export * from "./subnet";
export * from "./image";
export * from "./mysqlDatabase";
export * from "./postgresDatabase";
export * from "./sshKey";
export * from "./types";
export * from "./compat";
export * from "./lookups";
export * from "./reference";
