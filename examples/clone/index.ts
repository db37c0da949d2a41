import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();

// Production: deployed from an image, tagged.
const prod = new compute.Instance("prod", {
  label: "clone-prod",
  region: "us-east",
  type: "c1-standard-2",
  image: "compute/debian12",
  rootPass: config.requireSecret("rootPass"),
  tags: ["app", "production"],
});

// Staging: a clone of production (its disks, profiles and tags), booted once made. A new source makes a new clone.
const staging = new compute.Instance("staging", {
  label: config.get("stagingLabel") ?? "clone-staging",
  region: "us-east",
  type: "c1-standard-2",
  cloneFrom: { computeId: prod.id },
  booted: true,
});

export const prodId = prod.id;
export const stagingId = staging.id;
export const stagingTags = staging.tags;
export const stagingStatus = staging.status;
