/**
 * The plugin's Construct (provider/plugin/construct.ts) against a fake ResourceMonitor over gRPC: what it
 * registers, in what order, under which parent, with which dependencies, provider and secrets, at preview and
 * at up; and the components' inputs refused before anything is registered (provider/components/).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import { allowListOf } from "../../provider/components/database-for-servers";
import { ComponentInputsRefused, construct } from "../../provider/plugin/construct";
import { checkComponentInputs } from "../../provider/components/component";
import { DEFAULT_ROOT_DISK_SIZE, serverInVpc } from "../../provider/components/server-in-vpc";
import { pluginDownloadURL, version } from "../../provider/plugin/engine";
import { UNKNOWN } from "../../provider/model/table";
import { DEFAULT_SWAP_SIZE } from "../../api/contract/instances";
import { secret } from "../../provider/plugin/wire";

const SIG = "4dabf18193072939515e22adb298388d";

interface Registered {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  object: Record<string, unknown>;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  provider: string;
  version: string;
  pluginDownloadURL: string;
  acceptSecrets: boolean;
  supportsPartialValues: boolean;
}

/** What the fake engine answers a child with (its outputs), by type. */
function outputsOf(type: string, object: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case "compute:index:Instance":
      return { ...object, ipv4: ["198.51.100.4"], status: "offline" };
    case "compute:index:Config":
      return { ...object, booted: true, interfaceRecords: [{ purpose: "public" }, { purpose: "vpc", ipv4: { vpc: "10.0.1.5" } }] };
    case "compute:index:MysqlDatabase":
    case "compute:index:PostgresDatabase":
      return { ...object, hosts: { primary: "db.example" }, port: 3306, username: secret("root"), password: secret("hunter22-secret") };
    default:
      return object;
  }
}

/**
 * A fake ResourceMonitor: records each registration, answers URNs (and at up ids and outputs; at preview the
 * inputs, or what `planned` plans), each custom resource after `delayMs` (as the engine answers once its step is
 * done), counting the registrations under way at once.
 */
async function fakeMonitor(
  dryRun: boolean,
  opts: { delayMs?: number; planned?: (type: string, object: Record<string, unknown>) => Record<string, unknown> } = {},
) {
  const registered: Registered[] = [];
  const flight = { now: 0, most: 0 };
  const outputs: Array<{ urn: string; outputs: Record<string, unknown> }> = [];
  const server = new grpc.Server();
  server.addService(resrpc.ResourceMonitorService, {
    registerResource(call: grpc.ServerUnaryCall<resproto.RegisterResourceRequest, unknown>, cb: grpc.sendUnaryData<resproto.RegisterResourceResponse>) {
      const r = call.request;
      const object = r.getObject()?.toJavaScript() ?? {};
      const reg: Registered = {
        type: r.getType(),
        name: r.getName(),
        parent: r.getParent(),
        custom: r.getCustom(),
        object,
        dependencies: r.getDependenciesList(),
        propertyDependencies: Object.fromEntries(
          [...r.getPropertydependenciesMap().entries()].map(([k, v]: [string, resproto.RegisterResourceRequest.PropertyDependencies]) => [k, v.getUrnsList()]),
        ),
        provider: r.getProvider(),
        version: r.getVersion(),
        pluginDownloadURL: r.getPlugindownloadurl(),
        acceptSecrets: r.getAcceptsecrets(),
        supportsPartialValues: r.getSupportspartialvalues(),
      };
      registered.push(reg);
      const res = new resproto.RegisterResourceResponse();
      res.setUrn(`urn:pulumi:s::p::${r.getType()}::${r.getName()}`);
      if (!r.getCustom()) return cb(null, res);
      res.setId(dryRun ? "" : `id-${r.getName()}`);
      const outs = dryRun ? (opts.planned?.(r.getType(), object) ?? object) : outputsOf(r.getType(), object);
      res.setObject(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(outs))));
      flight.most = Math.max(flight.most, ++flight.now);
      setTimeout(() => {
        flight.now--;
        cb(null, res);
      }, opts.delayMs ?? 0);
    },
    registerResourceOutputs(call: grpc.ServerUnaryCall<resproto.RegisterResourceOutputsRequest, unknown>, cb: grpc.sendUnaryData<emptyproto.Empty>) {
      outputs.push({ urn: call.request.getUrn(), outputs: call.request.getOutputs()?.toJavaScript() ?? {} });
      cb(null, new emptyproto.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { endpoint: `127.0.0.1:${port}`, registered, outputs, flight, close: () => new Promise<void>((r) => server.tryShutdown(() => r())) };
}

type Monitor = Awaited<ReturnType<typeof fakeMonitor>>;

function request(
  monitor: Monitor,
  type: string,
  inputs: Record<string, unknown>,
  opts: { dryRun?: boolean; providers?: Record<string, string>; deps?: Record<string, string[]> } = {},
) {
  const r = new provproto.ConstructRequest();
  r.setType(`compute:index:${type}`);
  r.setName(type === "ServerInVpc" ? "web" : "app-db");
  r.setParent("urn:pulumi:s::p::pulumi:pulumi:Stack::p-s");
  r.setMonitorendpoint(monitor.endpoint);
  r.setDryrun(opts.dryRun ?? false);
  r.setInputs(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(inputs))));
  for (const [k, urns] of Object.entries(opts.deps ?? {}))
    r.getInputdependenciesMap().set(k, new provproto.ConstructRequest.PropertyDependencies().setUrnsList(urns));
  for (const [k, v] of Object.entries(opts.providers ?? {})) r.getProvidersMap().set(k, v);
  return r;
}

const SUBNET = "urn:pulumi:s::p::compute:index:Subnet::app";
const server = {
  region: "us-east",
  type: "c1-standard-2",
  image: "compute/debian12",
  subnetId: "7",
  rootPass: secret("correct-horse-battery-9"),
  extraDisks: [{ label: "data", size: 2048 }],
};
const urnOf = (type: string, name: string) => `urn:pulumi:s::p::compute:index:${type}::${name}`;
const typeDisk = async () => 51200;

let monitor: Monitor;
afterEach(async () => monitor?.close());

describe("ServerInVpc", () => {
  test("up: the component, then the instance, its disks, and the profile that boots it, each under the component with its dependencies", async () => {
    monitor = await fakeMonitor(false, { delayMs: 20 });
    const res = await construct(request(monitor, "ServerInVpc", server, { deps: { subnetId: [SUBNET] } }), typeDisk);
    const comp = urnOf("ServerInVpc", "web");
    const inst = urnOf("Instance", "web-instance");
    expect(monitor.registered.map((r) => `${r.type.replace("compute:index:", "")} ${r.name}`)).toEqual([
      "ServerInVpc web",
      "Instance web-instance",
      "Disk web-root",
      "Disk web-swap",
      "Disk web-data",
      "Config web-config",
    ]);
    const [component, instance, root, swap, data, config] = monitor.registered;
    expect(component).toMatchObject({ custom: false, parent: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s" });
    for (const child of [instance, root, swap, data, config])
      expect(child).toMatchObject({ custom: true, parent: comp, acceptSecrets: true, supportsPartialValues: true });
    expect(instance).toMatchObject({ object: { region: "us-east", type: "c1-standard-2" }, dependencies: [] });
    // The root disk: the default size, whatever the type and the other disks; the password kept secret.
    expect(root.object).toEqual({
      computeId: "id-web-instance",
      label: "root",
      size: DEFAULT_ROOT_DISK_SIZE,
      image: "compute/debian12",
      rootPass: { [SIG]: expect.any(String), value: "correct-horse-battery-9" },
    });
    expect(root.propertyDependencies).toEqual({ computeId: [inst], label: [], size: [], image: [], rootPass: [] });
    expect(swap.object).toEqual({ computeId: "id-web-instance", label: "swap", size: 512, filesystem: "swap" });
    expect(data.object).toEqual({ computeId: "id-web-instance", label: "data", size: 2048 });
    // The disks one at a time (the API refuses two resizes at once): each registered once the one before is made,
    // and depending on it (so that the engine deletes them in turn too).
    expect(monitor.flight.most).toBe(1);
    expect(root.dependencies).toEqual([inst]);
    expect(swap.dependencies.sort()).toEqual([inst, urnOf("Disk", "web-root")].sort());
    expect(data.dependencies.sort()).toEqual([inst, urnOf("Disk", "web-swap")].sort());
    // The profile: the disks in order, a public interface then the vpc one, booted; after the disks and the subnet.
    expect(config.object).toEqual({
      computeId: "id-web-instance",
      label: "boot",
      devices: { sda: { diskId: "id-web-root" }, sdb: { diskId: "id-web-swap" }, sdc: { diskId: "id-web-data" } },
      interfaces: [
        { purpose: "public", primary: true },
        { purpose: "vpc", subnetId: "7" },
      ],
      booted: true,
      // A change of the profile takes effect at once (a running server reboots into it).
      rebootOnChange: true,
    });
    expect(config.propertyDependencies.devices.sort()).toEqual([urnOf("Disk", "web-data"), urnOf("Disk", "web-root"), urnOf("Disk", "web-swap")]);
    expect(config.propertyDependencies.interfaces).toEqual([SUBNET]);
    expect(config.dependencies.sort()).toEqual([inst, SUBNET, urnOf("Disk", "web-data"), urnOf("Disk", "web-root"), urnOf("Disk", "web-swap")].sort());
    // The outputs, registered and answered, with the children they come from.
    const state = res.getState()!.toJavaScript();
    expect(state).toEqual({
      instanceId: "id-web-instance",
      configId: "id-web-config",
      rootDiskId: "id-web-root",
      diskIds: ["id-web-root", "id-web-swap", "id-web-data"],
      privateIpv4: "10.0.1.5",
      publicIpv4: "198.51.100.4",
      booted: true,
    });
    expect(monitor.outputs).toEqual([{ urn: comp, outputs: state }]);
    expect(res.getUrn()).toBe(comp);
    expect(res.getStatedependenciesMap().get("privateIpv4")!.getUrnsList()).toEqual([urnOf("Config", "web-config")]);
  });

  test("preview: what is not made yet is unknown, in the children's inputs and the component's outputs", async () => {
    monitor = await fakeMonitor(true);
    const res = await construct(request(monitor, "ServerInVpc", { ...server, type: UNKNOWN, publicInterface: false }, { dryRun: true }), typeDisk);
    const root = monitor.registered.find((r) => r.name === "web-root")!;
    // The root disk's default size does not wait for the type.
    expect(root.object).toMatchObject({ computeId: UNKNOWN, size: DEFAULT_ROOT_DISK_SIZE });
    const config = monitor.registered.find((r) => r.name === "web-config")!;
    expect(config.object.interfaces).toEqual([{ purpose: "vpc", subnetId: "7", primary: true }]);
    expect(res.getState()!.toJavaScript()).toMatchObject({ instanceId: UNKNOWN, privateIpv4: UNKNOWN });
    expect(res.getState()!.toJavaScript().publicIpv4).toBeUndefined();
  });

  test("the children use the program's compute provider when it gives one, else the default provider the SDKs name", async () => {
    monitor = await fakeMonitor(false);
    await construct(request(monitor, "ServerInVpc", server, { providers: { compute: "urn:pulumi:s::p::pulumi:providers:compute::mine::1" } }), typeDisk);
    expect(monitor.registered[1]).toMatchObject({ provider: "urn:pulumi:s::p::pulumi:providers:compute::mine::1", version: "", pluginDownloadURL: "" });
    await monitor.close();
    monitor = await fakeMonitor(false);
    await construct(request(monitor, "ServerInVpc", server), typeDisk);
    expect(monitor.registered[1]).toMatchObject({ provider: "", version: version(), pluginDownloadURL: pluginDownloadURL() });
    expect(pluginDownloadURL()).toContain("${VERSION}");
  });

  test("inputs refused before anything is registered, naming the component's input and the rule", async () => {
    monitor = await fakeMonitor(true);
    const bad = { ...server, swapSize: -1, region: "", extraDisks: [{ label: "root", size: 10 }], vpcIpv4: "10.0.1.300", colour: "blue" };
    const e = await construct(request(monitor, "ServerInVpc", bad, { dryRun: true }), typeDisk).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ComponentInputsRefused);
    expect(e instanceof ComponentInputsRefused && e.failures.map((f) => f.reason)).toEqual([
      "region: must not be empty",
      "swapSize: Must be a whole number of MB, 0 or more",
      "vpcIpv4: must be an IPv4 address, for example 10.0.0.2",
      "colour: is not an input of ServerInVpc",
    ]);
    expect(monitor.registered).toEqual([]);
    expect(checkComponentInputs(serverInVpc, { ...server, extraDisks: [{ label: "root", size: 10 }] }).map((f) => f.reason)).toEqual([
      "extraDisks[0].label: must not be root: the component's own disk has it",
    ]);
    expect(
      checkComponentInputs(serverInVpc, {
        ...server,
        extraDisks: [
          { label: "a", size: 10 },
          { label: "a", size: 10 },
        ],
      }).map((f) => f.reason),
    ).toEqual(["extraDisks[1].label: must be unique: a is given twice"]);
    // An input not known yet passes, unless it decides which children are made.
    expect(checkComponentInputs(serverInVpc, { ...server, region: UNKNOWN, extraDisks: [{ label: "data", size: UNKNOWN }] })).toEqual([]);
    expect(checkComponentInputs(serverInVpc, {}).map((f) => f.reason)).toEqual([
      "region: is required",
      "type: is required",
      "image: is required",
      "subnetId: is required",
    ]);
  });

  test("the disks must fit the type's disk allowance, refused at preview naming the type; not checked while a size or the type is unknown", async () => {
    monitor = await fakeMonitor(true);
    const small = async (t: string) => (t === "c1-highmem-24" ? 20480 : undefined);
    const refused = async (inputs: Record<string, unknown>) => {
      const e = await construct(request(monitor, "ServerInVpc", inputs, { dryRun: true }), small).catch((x: unknown) => x);
      return e instanceof ComponentInputsRefused ? e.failures : e;
    };
    const tight = { ...server, type: "c1-highmem-24", extraDisks: [{ label: "data", size: 20480 - DEFAULT_ROOT_DISK_SIZE - 512 + 1 }] };
    expect(await refused(tight)).toEqual([
      {
        property: "type",
        reason: `type: must allow the disks: c1-highmem-24 allows 20480 MB, the disks take 20481 MB (rootDiskSize the default ${DEFAULT_ROOT_DISK_SIZE}, swapSize 512, extraDisks ${20480 - DEFAULT_ROOT_DISK_SIZE - 512 + 1}); choose a type with more disk or smaller disks`,
      },
    ]);
    expect(await refused({ ...server, type: "c1-highmem-24", rootDiskSize: 20000 })).toEqual([
      expect.objectContaining({ reason: expect.stringContaining("the disks take 22560 MB (rootDiskSize 20000, swapSize 512, extraDisks 2048)") }),
    ]);
    expect(monitor.registered).toEqual([]);
    // One MB less fits; an unknown size or type, or a type the catalogue does not have (the Instance names it), is not checked here.
    for (const ok of [
      { ...tight, extraDisks: [{ label: "data", size: 20480 - DEFAULT_ROOT_DISK_SIZE - 512 }] },
      { ...tight, extraDisks: [{ label: "data", size: UNKNOWN }] },
      { ...tight, rootDiskSize: UNKNOWN },
      { ...tight, type: UNKNOWN },
      { ...tight, type: "x9-unheard-of" },
    ])
      expect(await refused(ok)).toBeInstanceOf(provproto.ConstructResponse);
  });

  test("the default root disk size fits the real API's smallest type twice (a replacement made before the old is deleted) beside the default swap", () => {
    const recorded = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "cassettes", "TestTypes_List.json"), "utf8")) as {
      interactions: Array<{ path: string; response: { data?: Array<{ disk: number }> } }>;
    };
    const disks = recorded.interactions.filter((i) => i.path.startsWith("/compute/types")).flatMap((i) => (i.response.data ?? []).map((t) => t.disk));
    expect(disks.length).toBeGreaterThan(10);
    expect(2 * DEFAULT_ROOT_DISK_SIZE + DEFAULT_SWAP_SIZE).toBeLessThanOrEqual(Math.min(...disks));
  });

  test("inputs that decide which children are made must be known at preview: swapSize, the extra disks' list and labels", async () => {
    monitor = await fakeMonitor(true);
    const why = (input: string) => `${input}: must be known at preview: it decides which resources the component makes`;
    for (const [inputs, input] of [
      [{ ...server, swapSize: UNKNOWN }, "swapSize"],
      [{ ...server, extraDisks: UNKNOWN }, "extraDisks"],
      [{ ...server, extraDisks: [UNKNOWN] }, "extraDisks"],
      [{ ...server, extraDisks: [{ label: UNKNOWN, size: 10 }] }, "extraDisks"],
    ] as const) {
      const e = await construct(request(monitor, "ServerInVpc", inputs, { dryRun: true }), typeDisk).catch((x: unknown) => x);
      expect(e instanceof ComponentInputsRefused && e.failures).toEqual([{ property: input, reason: why(input), unknown: true }]);
    }
    expect(monitor.registered).toEqual([]);
  });

  test("privateIpv4 at preview: the fixed vpcIpv4 while the interfaces change; the recorded address while only their `active` is unknown", async () => {
    // The interfaces change (nat11 given): the profile's records are unknown.
    monitor = await fakeMonitor(true, { planned: (type, o) => (type === "compute:index:Config" ? { ...o, interfaceRecords: UNKNOWN } : o) });
    const fixed = await construct(request(monitor, "ServerInVpc", { ...server, vpcIpv4: "10.0.1.9", nat11: true }, { dryRun: true }), typeDisk);
    expect(fixed.getState()!.toJavaScript().privateIpv4).toBe("10.0.1.9");
    const chosen = await construct(request(monitor, "ServerInVpc", { ...server, nat11: true }, { dryRun: true }), typeDisk);
    expect(chosen.getState()!.toJavaScript().privateIpv4).toBe(UNKNOWN);
    await monitor.close();
    // A boot or shutdown (`booted` changes): the records are kept, each one's `active` unknown.
    const records = [
      { purpose: "public", active: UNKNOWN },
      { purpose: "vpc", active: UNKNOWN, ipv4: { vpc: "10.0.1.5" } },
    ];
    monitor = await fakeMonitor(true, { planned: (type, o) => (type === "compute:index:Config" ? { ...o, interfaceRecords: records } : o) });
    const booted = await construct(request(monitor, "ServerInVpc", { ...server, booted: false }, { dryRun: true }), typeDisk);
    expect(booted.getState()!.toJavaScript().privateIpv4).toBe("10.0.1.5");
  });
});

describe("DatabaseForServers", () => {
  test("the allow list is each server's /32 and the extra entries; the engine picks the child; the credentials stay secret", async () => {
    monitor = await fakeMonitor(false);
    const SERVER = "urn:pulumi:s::p::compute:index:ServerInVpc::web";
    const res = await construct(
      request(
        monitor,
        "DatabaseForServers",
        { engine: "postgresql/16.1", region: "us-east", type: "c1-standard-2", servers: ["10.0.1.5", "10.0.1.6"], extraAllowList: ["203.0.113.0/24"] },
        { deps: { servers: [SERVER] } },
      ),
      typeDisk,
    );
    const db = monitor.registered[1];
    expect(db).toMatchObject({ type: "compute:index:PostgresDatabase", name: "app-db-db", parent: urnOf("DatabaseForServers", "app-db") });
    expect(db.object.allowList).toEqual(["10.0.1.5/32", "10.0.1.6/32", "203.0.113.0/24"]);
    expect(db.propertyDependencies.allowList).toEqual([SERVER]);
    const state = res.getState()!.toJavaScript();
    expect(state.password).toEqual({ [SIG]: expect.any(String), value: "hunter22-secret" });
    expect(state.host).toBe("db.example");
    expect(allowListOf(["10.0.0.1"], undefined)).toEqual(["10.0.0.1/32"]);
  });

  test("servers not known yet at preview: the allow list is unknown; a server that is not an address is refused", async () => {
    monitor = await fakeMonitor(true);
    await construct(
      request(monitor, "DatabaseForServers", { engine: "mysql/8.0.35", region: "us-east", type: "c1-standard-2", servers: [UNKNOWN] }, { dryRun: true }),
      typeDisk,
    );
    expect(monitor.registered[1]).toMatchObject({ type: "compute:index:MysqlDatabase", object: { allowList: UNKNOWN } });
    const e = await construct(
      request(monitor, "DatabaseForServers", { engine: "mysql/8.0.35", region: "us-east", type: "c1-standard-2", servers: ["db-1"] }, { dryRun: true }),
      typeDisk,
    ).catch((x: unknown) => x);
    expect(e instanceof ComponentInputsRefused && e.failures.map((f) => f.reason)).toEqual([expect.stringMatching(/^servers\[0\]: /)]);
  });

  test("the engine must be known at preview: it decides the child's type", async () => {
    monitor = await fakeMonitor(true);
    const e = await construct(
      request(monitor, "DatabaseForServers", { engine: UNKNOWN, region: "us-east", type: "c1-standard-2", servers: ["10.0.1.5"] }, { dryRun: true }),
      typeDisk,
    ).catch((x: unknown) => x);
    expect(e instanceof ComponentInputsRefused && e.failures).toEqual([
      { property: "engine", reason: "engine: must be known at preview: it decides which resources the component makes", unknown: true },
    ]);
    expect(monitor.registered).toEqual([]);
  });
});
