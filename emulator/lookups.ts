import type { IncomingMessage } from "node:http";
import { serviceKey } from "./family";

/** What one API family offers another (VPCs and images to the compute routes, uploads to the server), without importing each other. */

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

/** Takes the data of an image upload (`PUT <upload_to>`, outside the API's paths), streamed; given by the image routes. */
export type UploadReceiver = (token: string, req: IncomingMessage) => Promise<void>;

export const SUBNETS = serviceKey<SubnetLookup>("subnets");
export const FIND_IMAGE = serviceKey<ImageFinder>("images.find");
export const RECEIVE_UPLOAD = serviceKey<UploadReceiver>("images.receiveUpload");
