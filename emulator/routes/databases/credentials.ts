import { type Router } from "../../router";
import { newPassword, ro, rw, type DatabaseContext } from "./context";
import type { Engine } from "./records";

const ROOT_USER: Record<Engine, string> = { mysql: "root", postgresql: "postgres" };

/** An engine's cluster credentials (shown and reset), its CA certificate, and its patch action. */
export function registerCredentialRoutes(router: Router, databases: DatabaseContext, engine: Engine): void {
  const { now, dur, find, requireStatus, unrestricted, dbEvent } = databases;
  const base = `/databases/${engine}/instances`;

  router.add("GET", `${base}/{instanceId}/credentials`, { scope: ro, auth: "required" }, (ctx) => {
    const db = find(ctx, engine);
    requireStatus(db, ["active"], "show its credentials");
    return { username: ROOT_USER[engine], password: db._password };
  });
  router.add("POST", `${base}/{instanceId}/credentials/reset`, { scope: rw, auth: "required" }, (ctx) => {
    unrestricted(ctx, "reset database credentials");
    const db = find(ctx, engine, "read_write");
    db._password = newPassword();
    db._resetSinceBackup = true;
    dbEvent("database_credentials_reset", ctx.user.username, db);
    return {};
  });
  router.add("POST", `${base}/{instanceId}/patch`, { scope: rw, auth: "required" }, (ctx) => {
    const db = find(ctx, engine, "read_write");
    requireStatus(db, ["active"], "be patched");
    db.status = "updating";
    db._queue.push({ status: "active", at: now() + dur("patching") });
    return {};
  });
  router.add("GET", `${base}/{instanceId}/ssl`, { scope: ro, auth: "required" }, (ctx) => {
    const db = find(ctx, engine);
    requireStatus(db, ["active"], "show its SSL certificate");
    return { ca_certificate: db._ca };
  });
}
