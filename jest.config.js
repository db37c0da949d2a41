const os = require("node:os");
const path = require("node:path");

// Every Node process the CLI starts for a test (the program, the dynamic provider server, the plugin)
// loads @pulumi/pulumi, about a second of CPU; Node's compile cache (Node 22) keeps V8's code for the
// next one, here beside the CLI in the project's cache. Inherited by Jest's workers and their children.
process.env.NODE_COMPILE_CACHE ??= path.join(
  process.env.PULUMI_COMPUTE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-compute"),
  "node-compile-cache",
);

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  // A TypeScript source before the JavaScript compiled beside it (policy/, compiled in place): tests read the source.
  moduleFileExtensions: ["ts", "js", "json", "node"],
  transform: { "^.+\\.[tj]s$": ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: { warnOnly: false } }] },
  // p-retry and its dependency are ESM-only: let ts-jest turn them into CommonJS for Jest.
  transformIgnorePatterns: ["/node_modules/(?!(p-retry|is-network-error)/)"],
  testTimeout: 30000,
  // The end-to-end suites mostly run the CLI and node processes: two at a time keep both cores of a small
  // machine busy (one, Jest's default there, leaves them idle while a program waits; three measured no
  // faster: 1152 s and 1229 s of Jest against 1185 s, with more CPU spent).
  // The longest suites first, also on a clean clone whose Jest cache is empty (tests/helpers/sequencer.js).
  testSequencer: "<rootDir>/tests/helpers/sequencer.js",
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
