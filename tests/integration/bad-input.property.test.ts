/**
 * Property-based bad input: generated invalid values, one field at a time, across every resource (the
 * cases: tests/helpers/bad-input-cases.ts, at least one per resource type of provider/registry.ts, which
 * tests/unit/registry-coverage.test.ts holds them to). `check` (what `pulumi preview` runs) must refuse
 * each, naming that field, and no request may change anything in the API.
 */
import fc from "fast-check";
import { definitionOf } from "../../provider/registry";
import { badInputCases as cases } from "../helpers/bad-input-cases";
import { call } from "../helpers/emulator";
import { useProviderSuite } from "../helpers/provider-suite";

const emu = useProviderSuite({ once: true });
beforeAll(async () => {
  // Instance 1, with the backup service: the source of the clone case and of the snapshots (their check asks the API about it).
  await call(emu, "POST", "/compute/instances", { body: { region: "us-east", type: "c1-standard-2", label: "clone-source", backups_enabled: true } });
});

let checked = 0;
test("every generated invalid input is refused at preview, naming its field; nothing reaches the API", async () => {
  emu.log.length = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: cases.length - 1 }).chain((i) => cases[i].gen.map((v) => ({ type: cases[i].type, field: cases[i].field, v }))),
      async ({ type, field, v }) => {
        const c = cases.find((x) => x.type === type && x.field === field)!;
        const r = await definitionOf(type).provider.check({}, { ...c.base, [field]: v });
        checked++;
        return r.failures.some((f) => f.property === field && f.reason.length > 0);
      },
    ),
    { numRuns: 400, seed: 20261122 },
  );
  expect(checked).toBeGreaterThanOrEqual(400);
  // The bases are valid: each refusal came from the generated value.
  for (const c of cases) expect([c.type, (await definitionOf(c.type).provider.check({}, c.base)).failures]).toEqual([c.type, []]);
  expect(emu.log.filter((l) => l.method !== "GET")).toEqual([]);
});
