import { readFileSync } from "node:fs";
import * as path from "node:path";
import { generatedFiles } from "../../scripts/gen-schema";

const ROOT = path.resolve(__dirname, "..", "..");

test.each(Object.entries(generatedFiles()))("%s is generated from the resource tables and up to date", (rel, content) => {
  expect(readFileSync(path.join(ROOT, rel), "utf8")).toBe(content);
});

test("the schema marks secret and force-new inputs", () => {
  const schema = JSON.parse(generatedFiles()["schema.json"]);
  expect(schema.resources["compute:index:SshKey"].inputProperties.sshKey.replaceOnChanges).toBe(true);
  expect(schema.resources["compute:index:SshKey"].requiredInputs).toEqual(["sshKey"]);
  expect(schema.config.variables.token.secret).toBe(true);
});
