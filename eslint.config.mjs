// ESLint: the recommended rules with type information, and promises that must be awaited or handled
// (no-floating-promises, no-misused-promises). Formatting is Prettier's (npm run lint runs both).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // The examples and test programs are user programs with their own tsconfig: tsc -p checks them.
    ignores: ["dist/", "**/node_modules/", "examples/", "bench/scale/", "tests/programs/", "tests/fixtures/", "coverage/", ".pack/", "**/*.js", "**/*.mjs"],
  },
  // The SDKs scripts/gen-sdks generates with Pulumi's code generators (docs/sdks.md): not ours to lint.
  { ignores: [".gen/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: ["./tsconfig.test.json"], tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // The field tables and the API's JSON are untyped by nature: `any` is allowed where it is written.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-require-imports": "off",
      // Checked inputs are primitives typed `unknown` (String(props.computeId)); the rule cannot know that.
      "@typescript-eslint/no-base-to-string": "off",
      // Methods of the provider interface are async whether or not a given one awaits.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    // Tests pass methods to expect() and mocks.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/unbound-method": "off" },
  },
);
