// Generated from the field tables (provider/resources) by `npm run gen:schema`: do not edit.

/** Per resource type: every property (inputs and outputs), the inputs stored as secrets, every secret output. */
export const TABLES = {
  Instance: {
    props: ["region","type","label","group","tags","alerts","watchdogEnabled","backupSchedule","backupsEnabled","booted","image","rootPass","authorizedKeys","authorizedUsers","scriptId","scriptData","backupId","swapSize","interfaces","metadata","firewallId","privateIp","migrationType","allowAutoDiskResize","rebuildOnImageChange","timeouts","status","ipv4","ipv6","specs","hypervisor","hostUuid","hasUserData","backups","vpcIpv4","bootConfigId","created","updated"],
    secretInputs: ["rootPass","scriptData","metadata"],
    secretOutputs: ["rootPass","scriptData","metadata"],
  },
  Disk: {
    props: ["computeId","size","label","filesystem","image","rootPass","authorizedKeys","authorizedUsers","scriptId","scriptData","timeouts","status","created","updated"],
    secretInputs: ["rootPass","scriptData"],
    secretOutputs: ["rootPass","scriptData"],
  },
  Config: {
    props: ["computeId","label","devices","helpers","kernel","memoryLimit","rootDevice","runLevel","virtMode","comments","interfaces","booted","rebootOnChange","timeouts"],
    secretInputs: [],
    secretOutputs: [],
  },
  Interface: {
    props: ["computeId","configId","purpose","label","ipamAddress","primary","subnetId","ipv4","ipRanges","vpcId","active"],
    secretInputs: [],
    secretOutputs: [],
  },
  Vpc: {
    props: ["label","description","region","created","updated"],
    secretInputs: [],
    secretOutputs: [],
  },
  Subnet: {
    props: ["vpcId","label","ipv4","computes","created","updated"],
    secretInputs: [],
    secretOutputs: [],
  },
  Image: {
    props: ["diskId","file","fileHash","region","label","description","cloudInit","timeouts","status","size","capabilities","isPublic","createdBy","type","created","updated"],
    secretInputs: [],
    secretOutputs: [],
  },
  MysqlDatabase: {
    props: ["label","region","type","engine","clusterSize","encrypted","sslConnection","replicationType","allowList","updates","timeouts","status","hosts","port","version","totalDiskSizeGb","usedDiskSizeGb","username","password","caCertificate","created","updated"],
    secretInputs: [],
    secretOutputs: ["username","password","caCertificate"],
  },
  PostgresDatabase: {
    props: ["label","region","type","engine","clusterSize","encrypted","sslConnection","replicationType","replicationCommitType","allowList","updates","timeouts","status","hosts","port","version","totalDiskSizeGb","usedDiskSizeGb","username","password","caCertificate","created","updated"],
    secretInputs: [],
    secretOutputs: ["username","password","caCertificate"],
  },
  SshKey: {
    props: ["label","sshKey","created"],
    secretInputs: [],
    secretOutputs: [],
  },
} as const;

export type ResourceType = keyof typeof TABLES;
