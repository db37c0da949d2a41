/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.[tj]s$": ["ts-jest", { tsconfig: "tsconfig.test.json", diagnostics: { warnOnly: false } }] },
  // p-retry and its dependency are ESM-only: let ts-jest turn them into CommonJS for Jest.
  transformIgnorePatterns: ["/node_modules/(?!(p-retry|is-network-error)/)"],
  testTimeout: 30000,
};
