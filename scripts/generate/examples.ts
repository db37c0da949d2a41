/**
 * Each resource's example (its definition's `example`, provider/model/example.ts), in TypeScript, Python, Go
 * and YAML, for its description in schema.json (Pulumi's `{{% examples %}}` form: each SDK's code generator
 * keeps its own language's block, `codegen.FilterExamples`) and for its docs page.
 *
 * One structured program per resource type, rendered by a small printer per language, so the four cannot
 * drift apart. The examples are compiled (TypeScript, Go), byte-compiled (Python) and run through the CLI
 * (YAML) by tests/integration/examples.test.ts.
 */
import { definitionOf } from "../../provider/registry";
import type { Example } from "../../provider/model/example";
import { EXAMPLE_LANGUAGES, exampleCode } from "./example-code";

export { EXAMPLE_LANGUAGES, type ExampleLanguage } from "./example-code";

/** The `{{% examples %}}` section appended to the description of resource `type` (a spec.type of provider/registry.ts). */
export function examplesSection(type: string): string {
  return exampleSection(definitionOf(type).example());
}

/** The `{{% examples %}}` section of one example program (a resource's, a component's). */
export function exampleSection(ex: Example): string {
  const code = exampleCode(ex);
  const blocks = EXAMPLE_LANGUAGES.map((lang) => "```" + lang + "\n" + code[lang] + "\n```").join("\n");
  return `\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n### ${ex.title}\n\n${blocks}\n{{% /example %}}\n{{% /examples %}}`;
}

/** The example of resource `type` in TypeScript on the dynamic classes (`pulumi-compute`), for its docs page. */
export function dynamicExample(type: string): { title: string; code: string } {
  const ex = definitionOf(type).example();
  return { title: ex.title, code: exampleCode(ex, { nodePackage: "pulumi-compute" }).typescript };
}
