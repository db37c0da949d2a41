export { Config, type ConfigArgs, type DeviceArgs, type DeviceSlot } from "./config";
export { Disk, type DiskArgs } from "./disk";
export { Instance, type InstanceArgs, type InterfaceArgs } from "./instance";
export { Interface, type InterfaceResourceArgs } from "./interface";
export { SshKey, type SshKeyArgs } from "./sshKey";
export {
  getImage,
  getImages,
  getKernel,
  getKernels,
  getRegion,
  getRegions,
  getType,
  getTypes,
  type Image,
  type InstanceType,
  type Kernel,
  type ReadOptions,
  type Region,
} from "./reference";
