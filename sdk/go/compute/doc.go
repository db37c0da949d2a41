// Pulumi provider for the compute API (instances, disks, configs, interfaces, images, VPCs, databases, SSH keys).
package compute
