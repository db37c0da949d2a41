import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { countersOf, type StateHolder } from "../../emulator/family";
import { databaseFamily } from "../../emulator/routes/databases";
import { imageFamily } from "../../emulator/routes/images";
import { profileFamily } from "../../emulator/routes/profile";
import { profileSecurityFamily } from "../../emulator/routes/profile-security";
import { vpcFamily } from "../../emulator/routes/vpc";

/**
 * The states the emulators of earlier releases saved (tests/fixtures/upgrade-*) hold records that the VPC, image,
 * database and profile families take as a fixture's (issue 52: a stored schema stricter than what the emulator
 * writes would make an account's export unloadable): each record read by its collection's schema, none refused by
 * the families' references, and each counter the families work out from the records at most the file's own.
 */

const FIXTURES = path.join(__dirname, "../fixtures");
const STATES = readdirSync(FIXTURES).filter((d) => d.startsWith("upgrade-"));
const FAMILIES = [vpcFamily, imageFamily({}), databaseFamily, profileFamily, profileSecurityFamily];

test.each(STATES)("the records %s saved are the families' (schemas, references, counters)", (name) => {
  const data = JSON.parse(readFileSync(path.join(FIXTURES, name, "emulator.json"), "utf8")) as Record<string, unknown>;
  const collections = FAMILIES.flatMap((f) => Object.entries(f.state?.schemas ?? {}));
  for (const [collection] of collections) data[collection] ??= [];
  for (const [collection, schema] of collections) {
    const records = data[collection] as unknown[];
    expect(records.map((r) => schema.safeParse(r).error?.issues)).toEqual(records.map(() => undefined));
  }
  // The file as a state: the core's collections and the families' (the JSON read above).
  const state = { data } as unknown as StateHolder;
  expect(FAMILIES.flatMap((f) => f.references?.(state) ?? [])).toEqual([]);
  const nextId = data.nextId as Record<string, number>;
  for (const [kind, n] of Object.entries(countersOf(FAMILIES, state))) expect([kind, n <= (nextId[kind] ?? 0)]).toEqual([kind, true]);
});
