import { configSpec } from "../../provider/resources/config";
import { diskSpec } from "../../provider/resources/disk";
import { instanceSpec } from "../../provider/resources/instance";
import { interfaceSpec } from "../../provider/resources/interface";
import { CONFIG_PROPS } from "../../sdk/config";
import { DISK_PROPS } from "../../sdk/disk";
import { INSTANCE_PROPS } from "../../sdk/instance";
import { INTERFACE_PROPS } from "../../sdk/interface";
import { IMAGE_PROPS, SUBNET_PROPS, VPC_PROPS } from "../../sdk/network";
import { MYSQL_PROPS, POSTGRES_PROPS } from "../../sdk/database";
import { mysqlSpec, postgresSpec } from "../../provider/resources/database";
import { imageSpec } from "../../provider/resources/image";
import { subnetSpec, vpcSpec } from "../../provider/resources/vpc";

// A name missing from an sdk class gets no output property: keep each class in step with its table.
test.each([
  ["Instance", INSTANCE_PROPS, instanceSpec],
  ["Disk", DISK_PROPS, diskSpec],
  ["Config", CONFIG_PROPS, configSpec],
  ["Interface", INTERFACE_PROPS, interfaceSpec],
  ["Vpc", VPC_PROPS, vpcSpec],
  ["Subnet", SUBNET_PROPS, subnetSpec],
  ["Image", IMAGE_PROPS, imageSpec],
  ["MysqlDatabase", MYSQL_PROPS, mysqlSpec],
  ["PostgresDatabase", POSTGRES_PROPS, postgresSpec],
] as const)("the %s class passes every property of its table", (_name, props, spec) => {
  expect([...props].sort()).toEqual(spec.fields.map((f) => f.name).sort());
});
