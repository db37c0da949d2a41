/**
 * Runs of code lines that two sets of files share (issue: the emulator judges the provider, so no rule may be
 * written once and copied into both). Each file is read as a list of code lines: blank lines, lines that are
 * only comments, import lines and lines of brackets and punctuation alone are left out, and comments and
 * spacing are dropped from the rest. Two lines are alike when they are the same, or when they have the same
 * shape: the same keywords and punctuation, with every name, string, regular expression and number read as a
 * placeholder, so that a copy with other names or texts is caught too.
 */

/** Words kept as they are in a line's shape: JavaScript's and TypeScript's keywords and primitive types. */
const KEYWORDS = new Set(
  (
    "abstract any as async await boolean break case catch class const continue debugger declare default delete do else enum export " +
    "extends false finally for from function get if implements import in infer instanceof interface is keyof let never new null " +
    "number object of private protected public readonly return satisfies set static string super switch symbol this throw true try " +
    "type typeof undefined unknown var void while yield"
  ).split(" "),
);

/** One code line of a file: where it is, its text without comments or spacing, its shape, and its length as written. */
interface CodeLine {
  line: number;
  text: string;
  shape: string;
  length: number;
}

interface Token {
  text: string;
  shape: string;
  start: number;
  end: number;
}

/** The tokens of a line (strings, templates, regular expressions and numbers whole), and whether a block comment is still open after it. */
function tokenize(source: string, inComment: boolean): { tokens: Token[]; inComment: boolean } {
  const tokens: Token[] = [];
  let at = 0;
  const push = (end: number, shape: string) => {
    tokens.push({ text: source.slice(at, end), shape, start: at, end });
    at = end;
  };
  /** The end of a literal that starts at `at` and closes with `quote` (escapes skipped), or the line's end. */
  const closing = (quote: string) => {
    let end = at + 1;
    while (end < source.length && source[end] !== quote) end += source[end] === "\\" ? 2 : 1;
    return Math.min(end + 1, source.length);
  };
  while (at < source.length) {
    if (inComment) {
      const close = source.indexOf("*/", at);
      if (close < 0) return { tokens, inComment };
      at = close + 2;
      inComment = false;
      continue;
    }
    const ch = source[at];
    const rest = source.slice(at);
    if (/\s/.test(ch)) at++;
    else if (rest.startsWith("//")) break;
    else if (rest.startsWith("/*")) {
      inComment = true;
      at += 2;
    } else if (ch === '"' || ch === "'" || ch === "`") push(closing(ch), "S");
    else if (ch === "/" && !/^[\w$)\]]$/.test(tokens[tokens.length - 1]?.text.slice(-1) ?? "")) {
      // A regular expression (a slash where no value ends before it): up to the closing slash outside a class.
      let end = at + 1;
      let inClass = false;
      while (end < source.length && (inClass || source[end] !== "/")) {
        if (source[end] === "\\") end++;
        else if (source[end] === "[") inClass = true;
        else if (source[end] === "]") inClass = false;
        end++;
      }
      end++;
      while (end < source.length && /[a-z]/.test(source[end])) end++;
      push(Math.min(end, source.length), "R");
    } else {
      const number = /^(0[xXbBoO][\da-fA-F_]+|\d[\d_]*(\.\d+)?([eE][+-]?\d+)?)n?/.exec(rest);
      const word = /^[A-Za-z_$][\w$]*/.exec(rest);
      if (number) push(at + number[0].length, "N");
      else if (word) push(at + word[0].length, KEYWORDS.has(word[0]) ? word[0] : "I");
      else push(at + 1, ch);
    }
  }
  return { tokens, inComment };
}

/** The code lines of a file, in order. */
export function codeLines(source: string): CodeLine[] {
  const out: CodeLine[] = [];
  let inComment = false;
  let inImport = false;
  source.split("\n").forEach((raw, index) => {
    const read = tokenize(raw, inComment);
    inComment = read.inComment;
    const words = read.tokens.map((t) => t.shape);
    if (words[0] === "import" || (words[0] === "export" && words.includes("from"))) inImport = !words.includes("from") && !words.includes(";");
    else if (inImport) inImport = !words.includes("from");
    else if (words.some((w) => /[\w$]/.test(w))) {
      const length = read.tokens[read.tokens.length - 1].end - read.tokens[0].start;
      out.push({ line: index + 1, text: read.tokens.map((t) => t.text).join(" "), shape: words.join(" "), length });
    }
  });
  return out;
}

/** The shape of a line of data: an item of a list (`"text",`) or an entry of an object of values (`name: "text",`). */
const DATA = /^((I|S|N) (\? )?: )?(S|N|R|I|true|false|null)( ,)?$/;

/**
 * A line that says something of its own (a shape run needs two): longer than 20 characters, not a line of
 * data, and not the opening line of a block (`export interface Thing {`, whose block is what counts).
 */
const saysSomething = (l: CodeLine) => l.length > 20 && !DATA.test(l.shape) && !l.text.endsWith("{");

/**
 * The runs of at least `minLines` code lines that a file of `filesA` shares with a file of `filesB`, as
 * `a.ts:10-15 ~ b.ts:20-25` (the lines of the run's first and last code line). A run counts when its lines
 * are the same, or when they have the same shape and at least two of them say something of their own (a run
 * of short lines of one shape, such as a few field declarations or assignments, or a list of texts, is no copy).
 */
export function sharedBlocks(filesA: string[], filesB: string[], read: (f: string) => string, minLines = 6): string[] {
  const lines = new Map<string, CodeLine[]>();
  const linesOf = (f: string) => {
    if (!lines.has(f)) lines.set(f, codeLines(read(f)));
    return lines.get(f)!;
  };
  const key = (ls: CodeLine[], at: number) =>
    ls
      .slice(at, at + minLines)
      .map((l) => l.shape)
      .join("\n");
  // Where each run of `minLines` shapes stands in the files of B.
  const index = new Map<string, Array<{ file: string; at: number }>>();
  for (const file of filesB) {
    const ls = linesOf(file);
    for (let at = 0; at + minLines <= ls.length; at++) {
      const k = key(ls, at);
      if (!index.has(k)) index.set(k, []);
      index.get(k)!.push({ file, at });
    }
  }
  const found: Array<{ fileA: string; fileB: string; i: number; j: number; n: number }> = [];
  const place = (file: string, ls: CodeLine[], from: number, to: number) => `${file}:${ls[from].line}-${ls[to - 1].line}`;
  for (const fileA of filesA) {
    const a = linesOf(fileA);
    for (let i = 0; i + minLines <= a.length; i++) {
      for (const { file: fileB, at: j } of index.get(key(a, i)) ?? []) {
        const b = linesOf(fileB);
        if (fileA === fileB && i === j) continue;
        if (i > 0 && j > 0 && a[i - 1].shape === b[j - 1].shape) continue; // not the start of the run
        let n = minLines;
        while (i + n < a.length && j + n < b.length && a[i + n].shape === b[j + n].shape) n++;
        // The longest stretch of the run that is the same to the letter.
        let same = 0;
        let longestSame = 0;
        for (let k = 0; k < n; k++) {
          same = a[i + k].text === b[j + k].text ? same + 1 : 0;
          longestSame = Math.max(longestSame, same);
        }
        const long = a.slice(i, i + n).filter(saysSomething).length;
        if (longestSame >= minLines || long >= 2) found.push({ fileA, fileB, i, j, n });
      }
    }
  }
  // Runs of one pair of files that overlap on both sides (the same lines met at other offsets, as in two lists
  // of one shape) are one place: the longest is said.
  const kept: typeof found = [];
  const overlap = (x: (typeof found)[number], y: (typeof found)[number]) =>
    x.fileA === y.fileA && x.fileB === y.fileB && x.i < y.i + y.n && y.i < x.i + x.n && x.j < y.j + y.n && y.j < x.j + x.n;
  for (const run of [...found].sort((x, y) => y.n - x.n)) if (!kept.some((k) => overlap(k, run))) kept.push(run);
  return found
    .filter((run) => kept.includes(run))
    .map(({ fileA, fileB, i, j, n }) => `${place(fileA, linesOf(fileA), i, i + n)} ~ ${place(fileB, linesOf(fileB), j, j + n)}`);
}
