import { parseArgs, type ParseArgsConfig } from "node:util";

/**
 * The arguments of one of the project's commands (`npm run release -- ...`, `node dist/scripts/...`), read the
 * same way by each: `--help` (or `-h`) prints the command's usage and exits 0; an unknown option, a missing
 * value or an argument the command does not take prints what is wrong, then the usage, and exits 2.
 * (The shell scripts do the same through scripts/usage.sh; tests/unit/commands.test.ts runs each both ways.)
 */
export interface Command<O extends NonNullable<ParseArgsConfig["options"]>> {
  /** How a user types it (`npm run release --`), for the messages. */
  name: string;
  /** The usage: a synopsis line, then a line per option saying what it does. */
  usage: string;
  options: O;
  /** Whether it takes arguments that are not options (a release's version). */
  positionals?: boolean;
}

export function commandLine<const O extends NonNullable<ParseArgsConfig["options"]>>(
  cmd: Command<O>,
  argv: string[] = process.argv.slice(2),
): { values: { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string }; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...cmd.options, help: { type: "boolean", short: "h" } },
      allowPositionals: cmd.positionals ?? false,
      strict: true,
    });
  } catch (e) {
    process.stderr.write(`${cmd.name}: ${(e as Error).message}\n\n${cmd.usage}\n`);
    process.exit(2);
  }
  if (parsed.values.help) {
    process.stdout.write(`${cmd.usage}\n`);
    process.exit(0);
  }
  return parsed as { values: { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string }; positionals: string[] };
}
