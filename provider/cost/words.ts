/**
 * What the pipeline's reports (compute-cost's and compute-drift's) read and write alike: a count with its noun,
 * the stack a URN names, and the resource kind of a type of this provider.
 */

/** `1 resource`, `2 resources`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A stack and its project, as a URN names them: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export interface StackName {
  stack: string;
  project: string;
}
export function stackOfUrn(urn: string): StackName | undefined {
  const m = /^urn:pulumi:(.+?)::(.+?)::/.exec(urn);
  return m ? { stack: m[1], project: m[2] } : undefined;
}

/** The resource kind of a type of this provider, whichever front door made it (`compute:index:Instance`, `pulumi-nodejs:dynamic/compute:Instance`), else undefined. */
export function computeKind(type: string): string | undefined {
  return /(?:^compute:index|\/compute):(\w+)$/.exec(type)?.[1];
}
