import { DATABASE_APIS } from "../../../api/contract/database-endpoints";
import { STATUS_NEEDED, type Engine } from "../../../api/contract/databases";
import { rowsOf, type Row } from "../../router";
import { newPassword, type DatabaseContext } from "./context";

/** The root user of each engine (docs/spec-gaps.md "Credentials"). */
const ROOT_USER: Record<Engine, string> = { mysql: "root", postgresql: "postgres" };

const row = rowsOf<DatabaseContext>();

/** An engine's cluster credentials (shown and reset), its CA certificate, and its patch action. */
export function credentialRows(engine: Engine): Row<DatabaseContext>[] {
  const api = DATABASE_APIS[engine].clusters;
  return [
    row(api.credentials, (c, req) => {
      const db = c.find(req, engine);
      c.requireStatus(db, STATUS_NEEDED.credentials, "show its credentials");
      return { username: ROOT_USER[engine], password: db._password };
    }),
    // Rule 3: only an unrestricted user; rule 8: a new random root password.
    row(api.resetCredentials, (c, req) => {
      c.unrestricted(req.user, "reset database credentials");
      const db = c.find(req, engine, "read_write");
      db._password = newPassword();
      db._resetSinceBackup = true;
      c.dbEvent("database_credentials_reset", req.user.username, db);
      return {};
    }),
    // Rule 9: patches apply at once (the cluster is updating meanwhile).
    row(api.patch, (c, req) => {
      const db = c.find(req, engine, "read_write");
      c.requireStatus(db, STATUS_NEEDED.patch, "be patched");
      db.status = "updating";
      db._queue.push({ status: "active", at: c.now() + c.dur("patching") });
      return {};
    }),
    row(api.ssl, (c, req) => {
      const db = c.find(req, engine);
      c.requireStatus(db, STATUS_NEEDED.ssl, "show its SSL certificate");
      return { ca_certificate: db._ca };
    }),
  ];
}
