import { z } from "zod";
import { int } from "../api/contract/common";
import { image } from "../api/contract/images";
import { databaseEngine, databaseType, instanceType, kernel, LIMITED_CLASSES, region } from "../api/contract/reference";
import catalogJson from "./data/catalog.json";

/**
 * The reference data: one data file, `emulator/data/catalog.json`. It holds the real API's lists as recorded
 * in linode/linodego's cassettes (renamed: `compute/...` ids, `Computes` capabilities, `Compute 2GB` labels)
 * beside the emulator's own entries (`c1-*` types and the kernels and engines the tests use); an id both
 * have is one entry (docs/spec-gaps.md, "The catalogue"). It is read once, at load, by the contract's record
 * schemas (api/contract/reference.ts): an entry that is not the API's record stops the emulator, naming it.
 */

/** A public image, as `GET /images` lists it (the image family serves them beside the account's private ones). */
export const publicImage = image.omit({ tags: true });

/** A deployment script (no endpoint in the spec: docs/spec-gaps.md "Deployment scripts"): the images it runs on and its inputs. */
export const deploymentScript = z.strictObject({
  id: int,
  label: z.string(),
  images: z.array(z.string()),
  user_defined_fields: z.array(z.strictObject({ name: z.string(), label: z.string(), default: z.string().optional() })),
});

const catalogSchema = z
  .strictObject({
    regions: z.array(region),
    types: z.array(instanceType),
    kernels: z.array(kernel),
    images: z.array(publicImage),
    scripts: z.array(deploymentScript),
    engines: z.array(databaseEngine),
    /**
     * The types a database cluster's nodes can be, with the price of a cluster of each size per engine: the real
     * API's `GET /databases/types`, as recorded (TestDatabase_Type; not in databases-api.md: docs/spec-gaps.md).
     */
    database_types: z.array(databaseType),
    /** Per plan of the classes sold in some regions only (premium and gpu), the regions that sell it. */
    availability: z.record(z.string(), z.array(z.string())),
  })
  .superRefine((c, ctx) => {
    // Each plan sold in some regions is a type of such a class, and each region it names is one.
    const regions = new Set(c.regions.map((r) => r.id));
    const limited = new Set<string>(LIMITED_CLASSES);
    for (const [plan, soldIn] of Object.entries(c.availability)) {
      const type = c.types.find((t) => t.id === plan);
      if (!type || !limited.has(type.class))
        ctx.addIssue({ code: "custom", path: ["availability", plan], message: `no ${LIMITED_CLASSES.join(" or ")} type ${plan}` });
      for (const r of soldIn) if (!regions.has(r)) ctx.addIssue({ code: "custom", path: ["availability", plan], message: `no region ${r}` });
    }
  });

export type Catalog = z.output<typeof catalogSchema>;
export type PublicImage = z.output<typeof publicImage>;
export type DeploymentScript = z.output<typeof deploymentScript>;

/** The catalogue's data, read by its schema (an entry the schema refuses is an error naming its place). */
export function readCatalog(data: unknown): Catalog {
  const r = catalogSchema.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new Error(`emulator/data/catalog.json: ${issue.path.join(".")}: ${issue.message}`);
}

export const catalog: Catalog = readCatalog(catalogJson);
