import type { StateHolder } from "../../family";
import { privateIpNumber, publicIpNumber } from "./network";
import { computeState } from "./records";

/**
 * How far the compute family's id counters (state.ts `nextId` kinds) went in a state's records (ApiFamily
 * `counters`): the highest id of its instances, profiles, disks and backups, of the interfaces in its profiles (and
 * in its backups' profiles), and the number of the highest public and private address its instances hold (network.ts
 * makes the n-th address of each from n). So that what is made after a fixture's load takes new ids and addresses.
 */
export function computeCounters(state: StateHolder): Record<string, number> {
  const d = computeState(state);
  const top = (numbers: Iterable<number | undefined>) => {
    let n = 0;
    for (const x of numbers) if (x !== undefined && x > n) n = x;
    return n;
  };
  const interfaces = [...d.configs, ...d.backups.flatMap((b) => b._source.configs)].flatMap((cfg) => cfg.interfaces);
  const addresses = d.instances.flatMap((i) => i.ipv4);
  return {
    instance: top(d.instances.map((i) => i.id)),
    config: top(d.configs.map((c) => c.id)),
    disk: top(d.disks.map((x) => x.id)),
    backup: top(d.backups.map((b) => b.id)),
    interface: top(interfaces.map((i) => i.id)),
    ipv4: top(addresses.map(publicIpNumber)),
    private_ip: top(addresses.map(privateIpNumber)),
  };
}
