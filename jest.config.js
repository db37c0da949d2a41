/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.[tj]s$": ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: { warnOnly: false } }] },
  // p-retry and its dependency are ESM-only: let ts-jest turn them into CommonJS for Jest.
  transformIgnorePatterns: ["/node_modules/(?!(p-retry|is-network-error)/)"],
  testTimeout: 30000,
  // The end-to-end suites mostly run the CLI and node processes: two at a time keep both cores of a small
  // machine busy (one, Jest's default there, leaves them idle while a program waits).
  maxWorkers: Math.max(2, require("node:os").availableParallelism() - 1),
};
