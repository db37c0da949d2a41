/**
 * A misspelt name does not compile at the edges where the provider and the emulator meet the API (issue 52): the
 * records, the path parameters, the request bodies, the answers, the tables tied to the contract, the stored
 * records, what a hook keeps or sets of the outputs, a program's inputs. Each `@ts-expect-error` below is a check of
 * its own: ts-jest type-checks this file, and a directive whose line compiles fails it ("Unused '@ts-expect-error'
 * directive"). The functions holding them are type-checked and never run; the tests run the same lines spelt right.
 */
import { z } from "zod";
import { API } from "../../api/contract";
import { pathOf, type AnswerOf, type BodyIn } from "../../api/contract/endpoint";
import type { Event } from "../../api/contract/events";
import { profileState, type SshKeyRecord } from "../../emulator/routes/profile";
import { rowsOf } from "../../emulator/router";
import { storedUser } from "../../emulator/state";
import type { Store } from "../../emulator/store";
import { tableFor } from "../../provider/model/api-table";
import { PUBLIC_KEY, resource } from "../../provider/resources/example-parents";
import type { OutputsOf } from "../../provider/model/table";
import type { DatabaseFields } from "../../provider/resources/database/table";
import type { ApiClient } from "../../provider/transport/client";
import type * as compute from "../../sdk";

type Instance = AnswerOf<typeof API.instances.get>;
type Interface = AnswerOf<typeof API.interfaces.get>;
type Database = AnswerOf<typeof API.mysqlDatabases.get>;
type Token = AnswerOf<typeof API.tokens.get>;
type Backups = AnswerOf<typeof API.backups.list>;

/** The records: each field of the API's records is the contract's, nothing else. */
export const records = (i: Instance, iface: Interface, db: Database, t: Token, backups: Backups, e: Event): unknown[] => [
  // @ts-expect-error: an instance's addresses are `ipv4`
  i.ipv_4,
  // @ts-expect-error: an interface's VLAN address is `ipam_address` (a lost create found by it would make a second interface)
  iface.ipam_adress,
  // @ts-expect-error: a cluster's `replication_type`
  db.replication_tpye,
  // @ts-expect-error: a token's `expiry`
  t.expiy,
  // @ts-expect-error: the snapshot under way is `in_progress`
  backups.snapshot.in_progres,
  // @ts-expect-error: an event's `secondary_entity`
  e.secondary_entitiy,
];

/** The path parameters: each a parameter of the row's path, all of them given. */
export const paths = async (client: ApiClient): Promise<unknown[]> => [
  // @ts-expect-error: a disk's path names `diskId`
  pathOf(API.disks.get, { computeId: 1, diskID: 2 }),
  // @ts-expect-error: a profile's path names `configId`
  await client.call(API.configs.get, { params: { computeId: 1, confgId: 2 } }),
  // @ts-expect-error: an instance's path needs its `computeId`
  await client.call(API.instances.get, {}),
  // @ts-expect-error: the contract has no row `creat`
  API.instances.creat,
];

/** The request bodies a client sends: the row's fields only. */
export const bodies = async (client: ApiClient): Promise<unknown[]> => {
  // @ts-expect-error: a VPC's `description`
  const vpc: BodyIn<typeof API.vpcs.create> = { label: "net", region: "us-east", descripton: "the network" };
  return [
    vpc,
    // @ts-expect-error: a deploy's `root_pass`
    await client.call(API.instances.create, { body: { region: "us-east", type: "c1-standard-2", root_passs: "x" } }),
    // @ts-expect-error: a list's items are the row's records (a VPC's `label`)
    (await client.all(API.vpcs.list, {})).map((v) => v.lable),
  ];
};

const row = rowsOf<{ store: Store }>();

/** The emulator's handlers: parameters, bodies and answers typed by their rows. */
export const handlers = [
  // @ts-expect-error: the instance's id is `computeId`
  row(API.instances.get, (_c, req) => ({ id: req.params.computId })),
  row(API.instances.update, (_c, req) => {
    // @ts-expect-error: an update's `label`
    const label: unknown = req.body.lable;
    return Promise.reject(new Error(String(label)));
  }),
  // @ts-expect-error: an answer has the record's fields only (an SSH key's `ssh_key`)
  row(API.sshKeys.get, () => ({ id: 1, label: "k", ssh_kye: "ssh-ed25519 AAAA", created: "2026-01-01T00:00:00" })),
];

/** The stored records and the families' views of them. */
export const stored = (store: Store): unknown[] => {
  // @ts-expect-error: a stored key's owner is `username`
  const key: SshKeyRecord = { id: 1, label: "k", ssh_key: "ssh-ed25519 AAAA", created: "2026-01-01T00:00:00", usernme: "admin" };
  const user = storedUser.parse({});
  return [
    key,
    // @ts-expect-error: the profile family keeps `sshkeys`
    profileState(store).sshkey,
    // @ts-expect-error: a user's `restricted`
    user.restriced,
  ];
};

/** A table tied to the contract: what it sends, and what a lost create's search reads. */
const keyTable = {
  type: "Key",
  noun: "key",
  description: "A key.",
  idFormat: "Its id.",
  collectionPath: () => pathOf(API.sshKeys.list, {}),
  itemPath: (id: string) => pathOf(API.sshKeys.get, { sshKeyId: id }),
};

export const sends = () =>
  // @ts-expect-error: `ssh_kye` is no field of the create's or the update's body (fieldsNotInTheContract names it)
  tableFor(API.sshKeys)({ ...keyTable, fields: [{ name: "sshKey", api: "ssh_kye", kind: "input", schema: z.string(), description: "The key." }] });

export const searchesTheBody = () =>
  tableFor(API.sshKeys)({
    ...keyTable,
    fields: [{ name: "sshKey", kind: "input", schema: z.string(), description: "The key." }],
    async findExisting(client, body) {
      const keys = await client.all(API.sshKeys.list, {});
      // @ts-expect-error: the body sent is the create's (`ssh_key`)
      return keys.find((k) => k.ssh_key === body.ssh_kye);
    },
  });

export const searchesTheList = () =>
  tableFor(API.sshKeys)({
    ...keyTable,
    fields: [{ name: "sshKey", kind: "input", schema: z.string(), description: "The key." }],
    async findExisting(client, body) {
      const keys = await client.all(API.sshKeys.list, {});
      // @ts-expect-error: a listed key's `ssh_key`
      return keys.find((k) => k.ssh_kee === body.ssh_key);
    },
  });

/** What a hook keeps or sets of the outputs: the table's names. */
export const outputs = (cred: { username: string; password: string }): unknown[] => {
  // @ts-expect-error: a database's `password` output
  const read: OutputsOf<DatabaseFields> = { username: cred.username, pasword: cred.password };
  let kept: OutputsOf<DatabaseFields> = {};
  // @ts-expect-error: the credentials set on the outputs (`username`)
  kept = { ...kept, usernme: cred.username };
  return [read, kept];
};

/** A resource's example, which the SDKs' docs and the example programs of four languages are generated from. */
export const example = (): unknown[] => [
  // @ts-expect-error: an SSH key's `label`
  resource("SshKey", "deploy", { lable: "deploy", sshKey: PUBLIC_KEY }),
  // @ts-expect-error: the resource types are the registry's (`SshKey`)
  resource("SshKye", "deploy", { sshKey: PUBLIC_KEY }),
];

/** A program's inputs (the SDK's args). */
export const program = (): unknown[] => {
  // @ts-expect-error: an SSH key's `sshKey`
  const args: compute.SshKeyArgs = { sshKye: "ssh-ed25519 AAAA" };
  return [args];
};

describe("misspellings at the contract's edges", () => {
  test("the lines spelt right compile and run", () => {
    expect(pathOf(API.disks.get, { computeId: 1, diskId: 2 })).toBe("/compute/instances/1/disks/2");
    const key: SshKeyRecord = { id: 1, label: "k", ssh_key: "ssh-ed25519 AAAA", created: "2026-01-01T00:00:00", username: "admin" };
    expect(key.username).toBe("admin");
    const ok: OutputsOf<DatabaseFields> = { username: "u", password: "p" };
    expect(Object.keys(ok)).toEqual(["username", "password"]);
    expect(handlers.map((h) => h.endpoint.path)).toEqual(["/compute/instances/{computeId}", "/compute/instances/{computeId}", "/profile/sshkeys/{sshKeyId}"]);
    expect(searchesTheBody().fields.map((f) => f.name)).toEqual(["sshKey"]);
    expect(resource("SshKey", "deploy", { label: "deploy", sshKey: PUBLIC_KEY }).type).toBe("SshKey");
  });
});
