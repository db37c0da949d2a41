export { Instance, type InstanceArgs, type InterfaceArgs } from "./instance";
export { SshKey, type SshKeyArgs } from "./sshKey";
