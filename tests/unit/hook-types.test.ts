/**
 * The hooks' types are the table's (issue 37): a hook's inputs, its state and its field lists are exactly
 * the table's fields, so a misspelt field does not compile. Each `@ts-expect-error` below is a check of its
 * own: ts-jest type-checks this file, and a directive whose line compiles fails it ("Unused
 * '@ts-expect-error' directive"). The runtime checks hold what the core does with a table.
 */
import { z } from "zod";
import { defineResource } from "../../provider/definition";
import { endpoint, idParam } from "../../api/contract/endpoint";
import { tableFor } from "../../provider/model/api-table";
import type { InputsOf, Props } from "../../provider/model/table";
import { toApiBody } from "../../provider/model/mapping";
import type { ApiClient } from "../../provider/transport/client";

/** A made-up resource's rows (the contract's way): a thing, made, read and changed. */
const thing = z.strictObject({ id: z.number(), label: z.string(), size: z.number(), status: z.string() });
const thingBody = z.object({ label: z.string().optional(), size: z.number().optional() });
const source = "emulator";
const thingsApi = {
  create: endpoint({ method: "POST", path: "/things", source, scope: null, auth: "required", summary: "Make a thing", body: thingBody, answer: thing }),
  get: endpoint({
    method: "GET",
    path: "/things/{thingId}",
    params: { thingId: idParam },
    source,
    scope: null,
    auth: "required",
    summary: "A thing",
    answer: thing,
  }),
  update: endpoint({
    method: "PUT",
    path: "/things/{thingId}",
    params: { thingId: idParam },
    source,
    scope: null,
    auth: "required",
    summary: "Change a thing",
    body: thingBody,
    answer: thing,
  }),
};

const example = () => ({ title: "A thing", resources: [], outputs: {} });

const thingSpec = tableFor(thingsApi)({
  type: "Thing",
  noun: "thing",
  description: "A thing.",
  idFormat: "Its id.",
  fields: [
    { name: "label", kind: "input", schema: z.string(), description: "A label." },
    { name: "size", kind: "input", schema: z.number().int(), description: "A size." },
    { name: "status", kind: "output", outputType: "string", changesWith: ["size"], description: "A status." },
  ],
  timeouts: { defaults: { create: "1m" } },
  collectionPath: () => "/things",
  itemPath: (id) => `/things/${id}`,
});

describe("the hooks' types", () => {
  it("refuse a changesWith naming no input of the table", () => {
    const spec = tableFor(thingsApi)({
      type: "Thing",
      noun: "thing",
      description: "A thing.",
      idFormat: "Its id.",
      // @ts-expect-error: the status row's changesWith names "sise", no input of this table
      fields: [
        { name: "size", kind: "input", schema: z.number().int(), description: "A size." },
        { name: "status", kind: "output", changesWith: ["sise"], description: "A status." },
      ],
      collectionPath: () => "/things",
      itemPath: (id) => `/things/${id}`,
    });
    expect(spec.fields.map((f) => f.name)).toEqual(["size", "status"]);
  });

  it("give each hook the table's fields and nothing else", () => {
    const seen: unknown[] = [];
    const thing = defineResource({
      spec: thingSpec,
      sdk: { file: "thing" },
      example,
      hooks: {
        validate(news, olds) {
          // @ts-expect-error: a misspelt input
          seen.push(news.lable);
          // @ts-expect-error: a misspelt output of the state
          seen.push(olds.stauts);
          seen.push(news.label, olds.status);
          return [];
        },
        createBody(body, inputs) {
          const size: number | undefined = inputs.size;
          // @ts-expect-error: an input's type is its schema's (a number is no string)
          const wrong: string | undefined = inputs.size;
          return { ...body, size, wrong };
        },
        // @ts-expect-error: an output the table does not have (stauts)
        extraOutputs() {
          return { stauts: "ready" };
        },
        async update(ctx, olds, news, changed) {
          // @ts-expect-error: the changed inputs are the table's names
          seen.push(changed.includes("sise"));
          seen.push(changed.includes("size"), news.size, olds.status, ctx.props.label);
          ctx.outputs.status = "ready";
          // @ts-expect-error: the outputs a step sets are the table's
          ctx.outputs.stauts = "ready";
          return { id: 1, label: "l", size: 1, status: "ready" };
        },
      },
    });
    expect(thing.spec.type).toBe("Thing");
  });
});

/** A made-up child of an instance (`computeId` in its path): a part. */
const part = z.strictObject({ id: z.number(), label: z.string(), image: z.string() });
type PartApi = z.output<typeof part>;
const partsApi = {
  create: endpoint({
    method: "POST",
    path: "/compute/instances/{computeId}/parts",
    source,
    scope: null,
    auth: "required",
    summary: "Make a part",
    body: z.object({ label: z.string().optional(), image: z.string().optional(), root_pass: z.string().optional() }),
    answer: part,
  }),
  get: endpoint({
    method: "GET",
    path: "/compute/instances/{computeId}/parts/{partId}",
    params: { partId: idParam },
    source,
    scope: null,
    auth: "required",
    summary: "A part",
    answer: part,
  }),
};

/**
 * A child of a parent (`computeId` in its path), with an auto-named label, a generated secret, a lost create
 * found by its label and a lookup: each callback of its table is typed by its fields. The misspellings are
 * the nine that compiled before issue 47 (callbacks of the table that took untyped props).
 */
const partSpec = tableFor(partsApi)({
  type: "Part",
  noun: "part",
  description: "A part.",
  idFormat: "Its id.",
  fields: [
    { name: "computeId", kind: "input", inPath: true, schema: z.number().int(), description: "The parent." },
    { name: "label", kind: "input", schema: z.string(), description: "A label." },
    { name: "image", kind: "input", schema: z.string(), description: "An image." },
    { name: "rootPass", kind: "input", secret: true, schema: z.string(), description: "A password." },
  ],
  autoName: {
    // @ts-expect-error: the auto-named field is an input of the table ("lable" is none)
    field: "lable",
    min: 1,
    max: 10,
    allowed: /[a-z]/,
    separators: "-",
  },
  // @ts-expect-error: the generate's field is an input of the table
  generated: { field: "rootPas", value: () => "p", when: () => true },
  // @ts-expect-error: a misspelt input in a collection's path
  collectionPath: (inputs) => `/parents/${String(inputs.computeid)}/parts`,
  // @ts-expect-error: a misspelt field of the state in an item's path
  itemPath: (id, props) => `/parents/${String(props.computeid)}/parts/${id}`,
  async findExisting(client: ApiClient, body) {
    // @ts-expect-error: the body of a lost create has the inputs' API names ("lable" is none)
    const label = body.lable;
    const list = await client.request<{ data: PartApi[] }>("GET", "/parts");
    return list.body.data.find((p) => p.label === label && body.root_pass !== undefined);
  },
});

const generating = tableFor(partsApi)({
  ...partSpec,
  autoName: undefined,
  // @ts-expect-error: a misspelt input read by the generate's `when`
  generated: { field: "rootPass", value: () => "p", when: (inputs) => inputs.imag !== undefined },
  collectionPath: (inputs) => `/parents/${String(inputs.computeId)}/parts`,
  itemPath: (id, props) => `/parents/${String(props.computeId)}/parts/${id}`,
  findExisting: undefined,
});

describe("a table's own callbacks", () => {
  it("are typed by the table: the nine misspellings that compiled before refuse to", () => {
    const part = defineResource({
      spec: generating,
      sdk: { file: "part" },
      example,
      // @ts-expect-error: a lookup's parents are the table's inputs ("computeid" is none)
      lookup: { name: "getParts", listKey: "parts", scope: "linodes:read_only", description: "Parts.", parents: { computeid: "The parent." } },
      hooks: {
        async update(ctx, olds, news) {
          // @ts-expect-error: what a failure keeps is the table's inputs
          ctx.keep.rootPas = olds.rootPass;
          // @ts-expect-error: a body's field list is the table's names
          const body = toApiBody(generating, news, ["bootd"]);
          const ins = { ...news };
          // @ts-expect-error: a copy of the inputs keeps their type (no widening to Props)
          if (ins.rootPas === undefined) ins.rootPass = olds.rootPass;
          const copy: InputsOf<(typeof generating)["fields"]> = ins;
          const wide: Props = body;
          expect([copy, wide]).toBeDefined();
          return { id: 1, label: "l", image: "i" };
        },
      },
    });
    expect(part.spec.generated?.field).toBe("rootPass");
    expect(part.spec.itemPath("3", { computeId: 2 })).toBe("/parents/2/parts/3");
    expect(toApiBody(generating, { label: "a", image: "i", rootPass: "p", computeId: 2 }, ["label"])).toEqual({ label: "a" });
  });
});

describe("a table and its definition", () => {
  it("get the timeouts input from table(), and defineResource leaves the spec it is given as it was", () => {
    const before = thingSpec.fields.map((f) => f.name);
    expect(before).toEqual(["label", "size", "timeouts", "status"]);
    const frozen = Object.freeze({ ...thingSpec, fields: Object.freeze([...thingSpec.fields]) });
    const d = defineResource({ spec: frozen, sdk: { file: "thing" }, example });
    expect(d.spec.fields.map((f) => f.name)).toEqual(before);
    expect(thingSpec.fields.map((f) => f.name)).toEqual(before);
  });
});
