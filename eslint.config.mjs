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
      "@typescript-eslint/no-require-imports": "off",
      // Checked inputs are primitives typed `unknown` (String(props.computeId)); the rule cannot know that.
      "@typescript-eslint/no-base-to-string": "off",
      // Methods of the provider interface are async whether or not a given one awaits.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Tests pass methods to expect() and mocks.
      "@typescript-eslint/unbound-method": "off",
      // Tests read the API's answers and the CLI's JSON as they come (untyped), and what they read is what
      // they assert: typing every answer would only restate the expectations. The code they test is typed.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
);
