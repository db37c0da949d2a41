import type { IncomingMessage } from "node:http";
import type { Image } from "../api/contract/images";
import type { Subnet, Vpc } from "../api/contract/vpcs";
import { serviceKey } from "./family";

/**
 * What one API family offers another (VPCs and images to the compute routes, uploads to the server), without
 * importing each other; typed by the contract's records (api/contract).
 */

/** Where a subnet is: its VPC, the VPC's region and the subnet's range. */
export type SubnetPlace = { vpc_id: Vpc["id"]; region: Vpc["region"]; ipv4: Subnet["ipv4"] };

/** Where a subnet is, and free addresses in it (given by the VPC routes). */
export interface SubnetLookup {
  (id: number): SubnetPlace | undefined;
  /** A free address in the subnet (not in `taken`), or undefined when it is full (or there is no such subnet). */
  allocate?(id: number, taken?: string[]): string | undefined;
}

/** Finds an image a user may deploy or read (public, or their own private one), as the API shows it; given by the image routes. */
export type ImageFinder = (id: string, username: string | undefined) => Image | undefined;

/** Takes the data of an image upload (`PUT <upload_to>`, outside the API's paths), streamed; given by the image routes. */
export type UploadReceiver = (token: string, req: IncomingMessage) => Promise<void>;

export const SUBNETS = serviceKey<SubnetLookup>("subnets");
export const FIND_IMAGE = serviceKey<ImageFinder>("images.find");
export const RECEIVE_UPLOAD = serviceKey<UploadReceiver>("images.receiveUpload");
