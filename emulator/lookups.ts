/** What one route group tells another (VPCs and images to the compute routes), without importing each other. */

/** Where a subnet is, and free addresses in it (given by the VPC routes). */
export interface SubnetLookup {
  (id: number): { vpc_id: number; region: string; ipv4: string } | undefined;
  /** A free address in the subnet (not in `taken`), or undefined when it is full. */
  allocate?(id: number, taken?: string[]): string | undefined;
}

/** Finds an image a user may deploy (public, or their own private one); given by the image routes. */
export type ImageFinder = (
  id: string,
  username: string | undefined,
) => { id: string; label: string; capabilities: string[]; size: number; status: string } | undefined;
