import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

/**
 * The generated Markdown renders as tables: in every table of the generated docs (and the README's
 * resource table), each row has as many cells as its header. A `|` inside a cell must be escaped once
 * (`\|`); one escaped twice (`\\|`) ends the cell where it renders.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const GENERATED = [
  ...readdirSync(path.join(ROOT, "docs", "resources")).map((f) => path.join("docs", "resources", f)),
  path.join("docs", "functions.md"),
  "README.md",
];

/**
 * The cells of a table row, split where a GFM renderer splits: at every pipe that a backslash does not
 * escape (a backslash escapes the next character, so `\\|` is an escaped backslash, then a cell's end).
 */
function cells(row: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && i + 1 < row.length) {
      cur += row[i] + row[i + 1];
      i++;
    } else if (row[i] === "|") {
      out.push(cur);
      cur = "";
    } else cur += row[i];
  }
  out.push(cur);
  return out.slice(1, -1); // the leading and trailing pipes
}

test.each(GENERATED)("%s: every table row has the header's number of cells", (rel) => {
  const lines = readFileSync(path.join(ROOT, rel), "utf8").split("\n");
  let header: number | undefined;
  let tables = 0;
  for (const line of lines) {
    if (!line.startsWith("|")) {
      header = undefined;
      continue;
    }
    const n = cells(line).length;
    if (header === undefined) {
      header = n;
      tables++;
      continue;
    }
    expect([rel, line, n]).toEqual([rel, line, header]);
  }
  expect(tables).toBeGreaterThan(0);
});

test("an escaped pipe is escaped once", () => {
  for (const rel of GENERATED) expect([rel, readFileSync(path.join(ROOT, rel), "utf8").includes("\\\\|")]).toEqual([rel, false]);
});
