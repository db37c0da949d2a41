import type { Props, ResourceSpec } from "./table";

/**
 * The parent ids a child resource's import id carries: `<computeId>/<diskId>`, `<computeId>/<configId>/<interfaceId>`,
 * `<vpcId>/<subnetId>`. The resource's own id is the last part. A resource with no parent takes its id as is.
 */
export function importId(spec: ResourceSpec, id: string, props: Props): { id: string; parents: Props } {
  const inPath = spec.fields.filter((f) => f.inPath).map((f) => f.name);
  if (!inPath.length || inPath.every((n) => props[n] !== undefined && props[n] !== null)) return { id, parents: {} };
  const parts = id.split("/");
  if (parts.length !== inPath.length + 1 || parts.some((p) => !/^\d+$/.test(p))) {
    throw new Error(`the import id of a ${spec.noun} is ${[...inPath, "id"].map((n) => `<${n}>`).join("/")} (for example ${importExample(spec)}), got "${id}"`);
  }
  return { id: parts[parts.length - 1], parents: Object.fromEntries(inPath.map((n, i) => [n, Number(parts[i])])) };
}
/** An example import id of the resource, for the docs and messages. */
export const importExample = (spec: ResourceSpec): string => [...spec.fields.filter((f) => f.inPath), {}].map((_f, i) => String(123 + i * 333)).join("/");
