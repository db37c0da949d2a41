/**
 * The hooks' types are the table's (issue 37): a hook's inputs, its state and its field lists are exactly
 * the table's fields, so a misspelt field does not compile. Each `@ts-expect-error` below is a check of its
 * own: ts-jest type-checks this file, and a directive whose line compiles fails it ("Unused
 * '@ts-expect-error' directive"). The runtime checks hold what the core does with a table.
 */
import { z } from "zod";
import { defineResource } from "../../provider/definition";
import { table } from "../../provider/model/table";

interface ThingApi {
  id: number;
  label: string;
  size: number;
  status: string;
}

const example = () => ({ title: "A thing", resources: [], outputs: {} });

const thingSpec = table<ThingApi>()({
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
    const spec = table<ThingApi>()({
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
