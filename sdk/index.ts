export { SshKey, type SshKeyArgs } from "./sshKey";
