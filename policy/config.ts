/**
 * The pack's config (`--policy-pack-config`) refused when it names what the pack has not: a policy (a misspelt
 * `instance-backup`) or a setting (`maxMonthy`). The CLI (v3.274.1, pkg/resource/analyzer/config.go) refuses a level
 * that is not one (`mandetory`) and a setting of the wrong type (its schema's `type`) itself, but passes any other
 * name on, and @pulumi/policy sends a policy's `configSchema` as its properties and required ones only (so an
 * `additionalProperties: false` never reaches the CLI): a mistake of a name was ignored, and the preview passed.
 * The CLI gives the pack the whole config in the analyzer's Configure call and fails the run, saying why, when that
 * call fails: `refuseConfigMistakes` makes it fail on such a name, naming it and the names the pack has.
 */
import { createRequire } from "node:module";

/** What the check reads of a policy: its name and the settings of its schema. */
export interface PolicyInfo {
  name: string;
  configSchema?: { properties?: Record<string, unknown> };
}

/** A policy's config as the CLI sends it: its settings (its level is not among them). */
export type PackConfig = Record<string, Record<string, unknown>>;

/** The key that sets every policy's level at once (the CLI's and @pulumi/policy's reserved name). */
const ALL = "all";

/** The edit distance of two names, for a "did you mean". */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** ` (did you mean "x"?)` when one of `names` is a few edits from `name`. */
function nearest(name: string, names: string[]): string {
  const best = names.map((n) => ({ n, d: distance(name.toLowerCase(), n.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(name.length / 4)) ? ` (did you mean "${best.n}"?)` : "";
}

/** What is wrong with a config, each naming the mistake and what the pack has instead; none when it is right. */
export function configProblems(pack: string, policies: PolicyInfo[], config: PackConfig): string[] {
  const names = policies.map((p) => p.name);
  const problems: string[] = [];
  for (const [name, settings] of Object.entries(config)) {
    const policy = policies.find((p) => p.name === name);
    const given = Object.keys(settings);
    if (!policy && name !== ALL) {
      problems.push(
        `"${name}" is not a policy of ${pack}${nearest(name, names)}: its policies are ${names.join(", ")} (and "${ALL}", for every policy's level)`,
      );
      continue;
    }
    const known = Object.keys(policy?.configSchema?.properties ?? {});
    for (const key of given.filter((k) => !known.includes(k))) {
      problems.push(
        known.length
          ? `${name} has no setting "${key}"${nearest(key, known)}: its settings are ${known.join(", ")} (and enforcementLevel)`
          : `${name} has no settings ("${key}" given), only a level: give "${name}": "mandatory" (or "advisory", "disabled")`,
      );
    }
  }
  return problems;
}

/** What a method of a protobuf message answers (`undefined` when it has none). */
function ask(o: unknown, method: string): unknown {
  const f: unknown = o && typeof o === "object" ? Reflect.get(o, method) : undefined;
  return typeof f === "function" ? (f as () => unknown).call(o) : undefined;
}

/** The config in a Configure request (`ConfigureAnalyzerRequest`): each policy's settings, as plain values. */
export function configOf(request: unknown): PackConfig {
  const config: PackConfig = {};
  // A protobuf map's entries (each [name, PolicyConfig message]), as @pulumi/policy's own Configure reads them.
  const entries = ask(ask(request, "getPolicyconfigMap"), "entries");
  const list = entries && typeof entries === "object" && Symbol.iterator in entries ? [...(entries as Iterable<unknown>)] : [];
  for (const entry of list) {
    const pair: readonly unknown[] = Array.isArray(entry) ? (entry as unknown[]) : [];
    const [name, value] = pair;
    const props = ask(ask(value, "getProperties"), "toJavaScript");
    if (typeof name === "string") config[name] = props && typeof props === "object" ? { ...props } : {};
  }
  return config;
}

type Callback = (error: unknown, response?: unknown) => void;
type Handler = (call: { request: unknown }, callback: Callback) => unknown;

/**
 * Makes the pack's Configure call (the one the CLI makes with the whole config, before the program runs) fail
 * when the config names a policy or a setting the pack has not, its message saying which: the CLI ends the
 * preview or update with it (`configuring policy pack "compute" at ...: <the message>`). Call it before
 * `new PolicyPack(...)`, which starts the analyzer's server: it wraps that server's Configure handler (the
 * gRPC server of the @grpc/grpc-js that @pulumi/policy loads, found from @pulumi/policy's own folder).
 */
export function refuseConfigMistakes(pack: string, policies: PolicyInfo[]): void {
  const fromPolicy = createRequire(require.resolve("@pulumi/policy"));
  const grpc = fromPolicy("@grpc/grpc-js") as {
    Server: { prototype: { addService: (this: unknown, service: unknown, handlers: Record<string, unknown>) => void } };
    status: { INVALID_ARGUMENT: number };
  };
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (this: unknown, service: unknown, handlers: Record<string, unknown>) {
    const configure = handlers.configure as Handler | undefined;
    if (typeof configure === "function" && typeof handlers.analyzeStack === "function") {
      const checked: Handler = (call, callback) => {
        const problems = configProblems(pack, policies, configOf(call.request));
        if (!problems.length) return configure(call, callback);
        const details = problems.join("; ");
        callback(Object.assign(new Error(details), { code: grpc.status.INVALID_ARGUMENT, details }));
      };
      handlers = { ...handlers, configure: checked };
    }
    addService.call(this, service, handlers);
  };
}
