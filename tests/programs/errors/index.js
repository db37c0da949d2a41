// A program that fails, with no resource of pulumi-compute: the end-to-end tests' errors.e2e.test.ts.
// config `fail`: "apply" throws inside an apply (the two lines a user would write), "top" at the top level.
const pulumi = require("@pulumi/pulumi");
const fail = new pulumi.Config().get("fail") ?? "apply";
if (fail === "top") throw new Error("boom at the top level");
pulumi.output(1).apply(() => {
  throw new Error("boom inside an apply");
});
