/**
 * What the resources' examples share (each example is a whole program, so the parents it needs are made anew
 * in each): values the provider and the emulator accept (regions, types, images and engines of
 * emulator/data/catalog.json), and the parents several examples need.
 */
import { mapOf, obj, ref, resource, type Fields, type Res } from "../model/example";

export { mapOf, obj, ref, resource };

export const REGION = "us-east";
export const TYPE = "c1-standard-2";
export const IMAGE = "compute/debian12";
/** A real ed25519 public key (its private half was thrown away). */
export const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINNGSGOUj+xUx2+sJzQ7ZxOFJwhk7EsCze6Ae+LDb5HD deploy@example.com";

// Parents several examples need, made anew in each example (an example is a whole program).
/** An instance created empty: its disks and profiles are resources of their own. */
export const emptyHost = () => resource("Instance", "host", { region: REGION, type: TYPE });
/** A boot disk deployed from an image on an empty instance. */
export const bootDisk = (host: Res) => resource("Disk", "boot", { computeId: ref(host), size: 20480, image: IMAGE, authorizedKeys: [PUBLIC_KEY] });
export const configDevice = (disk: Res) => obj("ConfigDevice", { diskId: ref(disk) });
export const mysql = () =>
  resource("MysqlDatabase", "app-db", {
    region: REGION,
    type: TYPE,
    engine: "mysql/8.0.35",
    allowList: ["10.0.1.0/24"],
    updates: obj("MysqlDatabaseUpdates", { frequency: "weekly", duration: 2, hourOfDay: 3, dayOfWeek: 7 }),
  });
export const postgres = (name: string, extra: Fields = {}) =>
  resource("PostgresDatabase", name, { region: REGION, type: "c1-standard-4", engine: "postgresql/16.1", allowList: ["10.0.1.0/24"], ...extra });
