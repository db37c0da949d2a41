import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const rootPass = config.requireSecret("rootPass");
const region = "us-east";

// A private network with two subnets.
const net = new compute.Vpc("net", { label: "example-net", region, description: config.get("vpcDescription") ?? "example network" });
const web = new compute.Subnet("web", { vpcId: net.id, label: config.get("webSubnetLabel") ?? "web", ipv4: "10.0.1.0/24" });
const db = new compute.Subnet("db", { vpcId: net.id, label: "db", ipv4: "10.0.2.0/24" });

// A web server from an image, on the public internet and in the web subnet.
const webServer = new compute.Instance("web-1", {
  label: "net-web-1",
  region,
  type: "c1-standard-2",
  image: "compute/debian12",
  rootPass,
  interfaces: [
    { purpose: "public", primary: true },
    { purpose: "vpc", subnetId: web.id },
  ],
});

// A database server built from its own disk, in the db subnet only.
const dbServer = new compute.Instance("db-1", { label: "net-db-1", region, type: "c1-standard-2" });
const dbRoot = new compute.Disk("db-1-root", { computeId: dbServer.id, label: "root", size: 4096, image: "compute/debian12", rootPass });
new compute.Config("db-1-boot", {
  computeId: dbServer.id,
  label: "boot",
  devices: { sda: { diskId: dbRoot.id } },
  interfaces: [{ purpose: "vpc", subnetId: db.id, primary: true }],
  booted: true,
});

// Two private images: one captured from the database server's disk, one uploaded from a local file.
const golden = new compute.Image("golden", { diskId: dbRoot.id, label: "golden", description: config.get("imageDescription") ?? "captured from db-1" });
const imageFile = config.get("imageFile") ?? path.join(os.tmpdir(), "pulumi-compute-example-disk.img");
if (!fs.existsSync(imageFile)) fs.writeFileSync(imageFile, Buffer.alloc(2 * 1024 * 1024)); // a blank 2 MB raw disk
const uploaded = new compute.Image("uploaded", { file: imageFile, region, label: "uploaded", description: "uploaded from a file" });

export const vpcId = net.id;
export const subnets = { web: web.id, db: db.id };
export const webPublicIp = webServer.ipv4[0];
export const webVpcIp = webServer.vpcIpv4;
export const images = { golden: golden.id, uploaded: uploaded.id, uploadedHash: uploaded.fileHash };
