export { Config, type ConfigArgs, type DeviceArgs, type DeviceSlot } from "./config";
export { MysqlDatabase, PostgresDatabase, type DatabaseArgs, type MaintenanceWindow, type PostgresDatabaseArgs } from "./database";
export { Disk, type DiskArgs } from "./disk";
export { Instance, type DeployArgs, type InstanceArgs, type InterfaceArgs } from "./instance";
export { Interface, type InterfaceResourceArgs } from "./interface";
export { Image, Subnet, Vpc, type ImageArgs, type SubnetArgs, type VpcArgs } from "./network";
export { SshKey, type SshKeyArgs } from "./sshKey";
export * from "./lookups";
export {
  getImage,
  getImageOutput,
  getImages,
  getImagesOutput,
  getKernel,
  getKernelOutput,
  getKernels,
  getKernelsOutput,
  getRegion,
  getRegionOutput,
  getRegions,
  getRegionsOutput,
  getType,
  getTypeOutput,
  getTypes,
  getTypesOutput,
  type ImageInfo,
  type InstanceType,
  type Kernel,
  type ReadOptions,
  type Region,
} from "./reference";
