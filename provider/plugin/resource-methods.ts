/**
 * The plugin's methods of a resource (`compute:index:<Type>`): Check, Diff, Create, Read, Update and Delete,
 * each on the resource's definition (its table and its provider, provider/registry.ts), with the engine's
 * inputs unwrapped and the outputs marked secret as the state keeps them.
 */
import { AUTONAMING, IMPORTED, NAME_SUFFIX, RESOURCE_NAME } from "../model/marks";
import { createHash } from "node:crypto";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { diffInputs } from "../model/check";
import { detailedDiff } from "../model/diff-paths";
import { session } from "../session";
import { importId } from "../model/imports";
import { SUFFIX_LENGTH, type NamingPolicy } from "../model/naming";
import { definitions } from "../registry";
import { components } from "../components";
import type { ResourceProvider } from "../lifecycle/hooks";
import type { Props, ResourceSpec } from "../model/table";
import { withCustomTimeout } from "../model/timeouts";
import type { EngineLink } from "./engine";
import { answer, toCheckFailure, type Call, type Callback } from "./rpc";
import { failure, fromStruct, importedInputs, markSecrets, secretKeys, stateOf, toStruct, unwrapProps, withDeclared } from "./wire";

/** `compute:index:SshKey` → the resource type and its spec. */
function resourceOf(urn: string): { type: string; name: string; spec: ResourceSpec; impl: ResourceProvider } {
  // urn:pulumi:<stack>::<project>::<qualified type>::<name>
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  const token = qualified.split("$").pop() ?? "";
  const name = parts.slice(3).join("::");
  const m = /^compute:index:([A-Za-z]+)$/.exec(token);
  const d = m ? definitions.find((x) => x.spec.type === m[1]) : undefined;
  if (m && components.some((c) => c.type === m[1]))
    throw new Error(
      `pulumi-compute: ${token} is a component (its parts are resources of their own under it), which \`pulumi import\` cannot adopt: import its parts instead (each by its own type, as \`pulumi stack --show-urns\` lists a component's children),`,
    );
  if (!m || !d)
    throw new Error(
      `pulumi-compute: unknown resource type "${token}" (this plugin knows ${definitions.map((x) => `compute:index:${x.spec.type}`).join(", ")})`,
    );
  return { type: d.spec.type, name, spec: d.spec, impl: d.provider };
}

/**
 * Create and Update: the inputs unwrapped, run within the operation's customTimeouts, outputs as the state
 * keeps them (`stateOf`: marked secret, the table's and those whose input was); a failure that keeps the
 * resource carries the same.
 */
function mutation<Res>(
  cb: Callback<Res>,
  urn: string,
  raw: Props,
  timeoutSeconds: number,
  refresh: (spec: ResourceSpec, inputs: Props) => boolean,
  run: (t: ReturnType<typeof resourceOf>, inputs: Props, mark: (outs: Props) => Props) => Promise<Res>,
): void {
  let spec: ResourceSpec | undefined;
  const secrets = secretKeys(raw);
  const inputs = unwrapProps(raw);
  answer(
    cb,
    async () => {
      const t = resourceOf(urn);
      spec = t.spec;
      return withCustomTimeout(timeoutSeconds * 1000, () => run(t, inputs, (outs) => stateOf(t.spec, outs, secrets)));
    },
    (e) => failure(e, spec, secrets, spec !== undefined && refresh(spec, inputs)),
  );
}

/**
 * `refresh_before_update` (Create, Update and Read's answers, and a failure that keeps the resource): the
 * engine then reads the resource before each up, preview or destroy, and diffs from what it is now. So for a
 * resource whose program declares an input the table says `drifts` (a power state, which changes by itself:
 * a shutdown by hand, a crash, the host's maintenance), the next up puts the program's back (a boot or a
 * shutdown) instead of waiting for a `pulumi refresh`. Other resources change only when someone changes them,
 * and are not read before every run.
 */
export function refreshesBeforeUpdate(spec: ResourceSpec, inputs: Props): boolean {
  return spec.fields.some((f) => f.drifts && f.kind === "input" && inputs[f.name] !== undefined && inputs[f.name] !== null);
}

/**
 * The auto-name suffix from the engine's random seed: the same seed gives the same name (the engine keeps it
 * for a resource within one deployment, and across preview and up when an update plan is used).
 */
function suffixFrom(seed: Uint8Array): string | undefined {
  if (!seed.length) return undefined;
  return createHash("sha256").update(seed).digest("hex").slice(0, SUFFIX_LENGTH);
}

/** The engine's naming policy for a resource (`pulumi:autonaming`: the name it proposes, and how binding it is). */
function namingPolicy(a: provproto.CheckRequest.AutonamingOptions): NamingPolicy {
  const M = provproto.CheckRequest.AutonamingOptions.Mode;
  const mode = a.getMode() === M.DISABLE ? "disable" : a.getMode() === M.ENFORCE ? "enforce" : "propose";
  return { mode, proposedName: mode === "disable" ? undefined : a.getProposedName(), setting: "the pulumi:autonaming setting" };
}

/** The methods of the resources, for the engine `engine` (whether it reads `refresh_before_update`, when asked). */
export function resourceMethods(engine: EngineLink) {
  const refresh = (spec: ResourceSpec, inputs: Props) => engine.refreshBeforeUpdate && refreshesBeforeUpdate(spec, inputs);
  return {
    check(call: Call<provproto.CheckRequest>, cb: Callback<provproto.CheckResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { spec, impl, name } = resourceOf(r.getUrn());
        session().checked.add(r.getUrn());
        const rawNews = fromStruct(r.getNews());
        const secrets = secretKeys(rawNews);
        const news = unwrapProps(rawNews);
        const olds = unwrapProps(fromStruct(r.getOlds()));
        const seed = suffixFrom(r.getRandomseed_asU8());
        const checked = await impl.check(olds, {
          ...news,
          [RESOURCE_NAME]: name,
          ...(seed ? { [NAME_SUFFIX]: seed } : {}),
          ...(r.hasAutonaming() ? { [AUTONAMING]: namingPolicy(r.getAutonaming()!) } : {}),
        });
        const res = new provproto.CheckResponse();
        res.setInputs(toStruct(markSecrets(spec, checked.inputs, secrets)));
        res.setFailuresList(checked.failures.map(toCheckFailure));
        return res;
      });
    },

    diff(call: Call<provproto.DiffRequest>, cb: Callback<provproto.DiffResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const olds = withDeclared(spec, unwrapProps(fromStruct(r.getOlds())), unwrapProps(fromStruct(r.getOldInputs())));
        const news = unwrapProps(fromStruct(r.getNews()));
        const d = await impl.diff(r.getId(), olds, news).catch((e: unknown) => {
          // A refresh's Diff (no Check came first: see Session.checked) frames drift as the up that would undo it.
          // A refusal of that up (a resize back that the grown disks no longer fit) is the next preview's to say:
          // the refresh reports the drift, by the table's diff alone, rather than failing.
          if (session().checked.has(r.getUrn())) throw e;
          return diffInputs(spec, olds, news);
        });
        const res = new provproto.DiffResponse();
        const changed = d.changed ?? [];
        res.setChanges(d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
        res.setReplacesList(d.replaces);
        res.setDeletebeforereplace(d.deleteBeforeReplace);
        res.setDiffsList(changed);
        res.setHasdetaileddiff(true);
        // Where inside each input the change is (alerts.cpu, interfaces[0].ipv4.vpc), and whether it replaces.
        const K = provproto.PropertyDiff.Kind;
        const kinds = { add: [K.ADD, K.ADD_REPLACE], delete: [K.DELETE, K.DELETE_REPLACE], update: [K.UPDATE, K.UPDATE_REPLACE] };
        const detailed = res.getDetaileddiffMap();
        for (const { path, change, replace } of detailedDiff(spec, olds, news, changed, d.replaces)) {
          const pd = new provproto.PropertyDiff();
          pd.setKind(kinds[change][replace ? 1 : 0]);
          pd.setInputdiff(true);
          detailed.set(path, pd);
        }
        return res;
      });
    },

    create(call: Call<provproto.CreateRequest>, cb: Callback<provproto.CreateResponse>) {
      const r = call.request;
      mutation(cb, r.getUrn(), fromStruct(r.getProperties()), r.getTimeout(), refresh, async (t, inputs, mark) => {
        const res = new provproto.CreateResponse();
        res.setRefreshBeforeUpdate(refresh(t.spec, inputs));
        // A preview: the planned outputs, with no request (provider/model/plan.ts).
        if (r.getPreview()) {
          res.setProperties(toStruct(mark(t.impl.plan(undefined, {}, inputs))));
          return res;
        }
        const created = await t.impl.create(inputs);
        res.setId(created.id);
        res.setProperties(toStruct(mark(created.outs)));
        return res;
      });
    },

    read(call: Call<provproto.ReadRequest>, cb: Callback<provproto.ReadResponse>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const raw = fromStruct(r.getProperties());
        const rawInputs = fromStruct(r.getInputs());
        const secrets = [...new Set([...secretKeys(raw), ...secretKeys(rawInputs)])];
        const props = withDeclared(spec, unwrapProps(raw), unwrapProps(rawInputs));
        // No state: an import (or a get), whose id names the parents of a child resource.
        const fresh = Object.keys(props).length === 0 && Object.keys(rawInputs).length === 0;
        const { id, parents } = importId(spec, r.getId(), props);
        const state = { ...props, ...parents };
        const got = await withCustomTimeout(r.getTimeout() * 1000, () => impl.read(id, state));
        const res = new provproto.ReadResponse();
        if (!got.id) return res; // gone
        const outs = { ...got.props, ...(fresh ? { [IMPORTED]: true } : {}) };
        res.setId(got.id);
        res.setProperties(toStruct(stateOf(spec, outs, secrets)));
        const inputs = fresh ? importedInputs(spec, got.inputs ?? {}) : (got.inputs ?? {});
        res.setInputs(toStruct(markSecrets(spec, inputs, secrets)));
        res.setRefreshBeforeUpdate(refresh(spec, inputs));
        return res;
      });
    },

    update(call: Call<provproto.UpdateRequest>, cb: Callback<provproto.UpdateResponse>) {
      const r = call.request;
      mutation(cb, r.getUrn(), fromStruct(r.getNews()), r.getTimeout(), refresh, async (t, news, mark) => {
        const olds = withDeclared(t.spec, unwrapProps(fromStruct(r.getOlds())), unwrapProps(fromStruct(r.getOldInputs())));
        const res = new provproto.UpdateResponse();
        res.setRefreshBeforeUpdate(refresh(t.spec, news));
        if (r.getPreview()) {
          res.setProperties(toStruct(mark(t.impl.plan(r.getId(), olds, news))));
          return res;
        }
        const updated = await t.impl.update(r.getId(), olds, news);
        res.setProperties(toStruct(mark(updated.outs)));
        return res;
      });
    },

    delete(call: Call<provproto.DeleteRequest>, cb: Callback<emptyproto.Empty>) {
      answer(cb, async () => {
        const r = call.request;
        const { impl, spec } = resourceOf(r.getUrn());
        const props = withDeclared(spec, unwrapProps(fromStruct(r.getProperties())), unwrapProps(fromStruct(r.getOldInputs())));
        await withCustomTimeout(r.getTimeout() * 1000, () => impl.delete(r.getId(), props));
        return new emptyproto.Empty();
      });
    },
  };
}
