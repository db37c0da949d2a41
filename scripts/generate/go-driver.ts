/**
 * The `main` of a generated Go program (the SDK matrix's, the errors-in-every-language programs'), which no Go
 * language host runs here: Pulumi's Automation API runs the program as an inline one.
 */

/**
 * The Go program's `main`: runs the inline program `program` as the project `project` (the stack STACK;
 * PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, COMPUTE_API_URL and COMPUTE_TOKEN from the environment), the
 * operation its argument names (`preview`, `up` or `destroy`), with the engine's output on stdout as the CLI prints it;
 * after an up, the stack's outputs as JSON in the file OUTPUTS names. Exit 1 when the operation fails.
 */
export function goDriver(project: string): { imports: string[]; code: string[] } {
  return {
    imports: [
      "context",
      "encoding/json",
      "fmt",
      "os",
      "github.com/pulumi/pulumi/sdk/v3/go/auto",
      "github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy",
      "github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview",
      "github.com/pulumi/pulumi/sdk/v3/go/auto/optup",
    ],
    code: [
      "func main() {",
      "\tctx := context.Background()",
      `\tstack, err := auto.UpsertStackInlineSource(ctx, os.Getenv("STACK"), ${JSON.stringify(project)}, program)`,
      "\tif err == nil {",
      "\t\terr = stack.SetAllConfig(ctx, auto.ConfigMap{",
      '\t\t\t"compute:apiUrl": auto.ConfigValue{Value: os.Getenv("COMPUTE_API_URL")},',
      '\t\t\t"compute:token":  auto.ConfigValue{Value: os.Getenv("COMPUTE_TOKEN"), Secret: true},',
      "\t\t})",
      "\t}",
      '\tif err == nil && len(os.Args) > 1 && os.Args[1] == "preview" {',
      "\t\t_, err = stack.Preview(ctx, optpreview.ProgressStreams(os.Stdout))",
      '\t} else if err == nil && len(os.Args) > 1 && os.Args[1] == "destroy" {',
      "\t\t_, err = stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))",
      "\t} else if err == nil {",
      "\t\tvar up auto.UpResult",
      "\t\tup, err = stack.Up(ctx, optup.ProgressStreams(os.Stdout))",
      '\t\tif err == nil && os.Getenv("OUTPUTS") != "" {',
      "\t\t\toutputs := map[string]interface{}{}",
      "\t\t\tfor k, v := range up.Outputs {",
      "\t\t\t\toutputs[k] = v.Value",
      "\t\t\t}",
      "\t\t\tvar text []byte",
      "\t\t\tif text, err = json.Marshal(outputs); err == nil {",
      '\t\t\t\terr = os.WriteFile(os.Getenv("OUTPUTS"), text, 0o600)',
      "\t\t\t}",
      "\t\t}",
      "\t}",
      "\tif err != nil {",
      "\t\t// The engine's output said what failed (the Automation API's error repeats all of it).",
      '\t\tfmt.Fprintln(os.Stderr, "the operation failed")',
      "\t\tos.Exit(1)",
      "\t}",
      "}",
    ],
  };
}

/**
 * A whole Go program: `func program(ctx *pulumi.Context) error` with `body` (its statements, at one tab, without
 * the `return nil`), the functions `after` it, and `main` (`goDriver`); imports the driver's, the SDK's and
 * pulumi's, in gofmt's two groups.
 */
export function goFile(project: string, body: string[], after: string[], sdkImport: string, comment: string): string {
  const driver = goDriver(project);
  const all = [...new Set([...driver.imports, sdkImport, "github.com/pulumi/pulumi/sdk/v3/go/pulumi"])];
  const std = all.filter((i) => !i.includes(".")).sort();
  const others = all.filter((i) => i.includes(".")).sort();
  return [
    `// ${comment}`,
    "package main",
    "",
    "import (",
    ...std.map((i) => `\t${JSON.stringify(i)}`),
    "",
    ...others.map((i) => `\t${JSON.stringify(i)}`),
    ")",
    "",
    "func program(ctx *pulumi.Context) error {",
    ...body.map((l) => `\t${l}`),
    "\treturn nil",
    "}",
    ...after,
    "",
    ...driver.code,
    "",
  ].join("\n");
}
