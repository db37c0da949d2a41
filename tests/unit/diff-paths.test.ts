import { changedPaths, detailedDiff } from "../../provider/model/diff-paths";
import { instanceSpec } from "../../provider/resources/instance";
import { configSpec } from "../../provider/resources/config";
import { UNKNOWN } from "../../provider/model/table";

test("nested paths: objects by key, lists by index, additions and deletions", () => {
  expect(changedPaths("alerts", { cpu: 90, io: 10 }, { cpu: 50, io: 10 })).toEqual([["alerts.cpu", "update"]]);
  expect(changedPaths("tags", ["a", "b"], ["a", "c", "d"])).toEqual([
    ["tags[1]", "update"],
    ["tags[2]", "add"],
  ]);
  expect(changedPaths("tags", ["a", "b"], ["a"])).toEqual([["tags[1]", "delete"]]);
  expect(
    changedPaths(
      "interfaces",
      [{ purpose: "public" }, { purpose: "vpc", subnetId: 1, ipv4: { vpc: "10.0.0.2" } }],
      [{ purpose: "public" }, { purpose: "vpc", subnetId: 1, ipv4: { vpc: "10.0.0.3" } }],
    ),
  ).toEqual([["interfaces[1].ipv4.vpc", "update"]]);
  expect(changedPaths("backupSchedule", { day: "Monday", window: "W2" }, { day: "Friday", window: "W2" })).toEqual([["backupSchedule.day", "update"]]);
  // A value not known yet: the path changes (to what, the up will tell).
  expect(changedPaths("interfaces", [{ purpose: "vpc", subnetId: 1 }], [{ purpose: "vpc", subnetId: UNKNOWN }])).toEqual([
    ["interfaces[0].subnetId", "update"],
  ]);
  expect(changedPaths("description", "x", undefined)).toEqual([["description", "delete"]]);
  expect(changedPaths("description", undefined, "x")).toEqual([["description", "add"]]);
  expect(changedPaths("ipv4", { vpc: "10.0.0.2", nat11: null }, { vpc: "10.0.0.2", nat11: "any" })).toEqual([["ipv4.nat11", "add"]]);
});

test("a partial object compares only the keys the program gives; a replacement marks every path it forces", () => {
  const olds = {
    alerts: { cpu: 90, io: 10000, networkIn: 10, networkOut: 10, transferQuota: 80 },
    devices: { sda: { diskId: 1, volumeId: null }, sdb: null },
    image: "compute/debian12",
  };
  expect(detailedDiff(instanceSpec, olds, { alerts: { cpu: 50 } }, ["alerts"], [])).toEqual([{ path: "alerts.cpu", change: "update", replace: false }]);
  expect(detailedDiff(configSpec, olds, { devices: { sda: { diskId: 2, volumeId: null }, sdb: null } }, ["devices"], [])).toEqual([
    { path: "devices.sda.diskId", change: "update", replace: false },
  ]);
  expect(detailedDiff(instanceSpec, olds, { image: "compute/ubuntu24.04" }, ["image"], ["image"])).toEqual([
    { path: "image", change: "update", replace: true },
  ]);
  // A change the values cannot show (a label due after a replacement) names the input itself.
  expect(detailedDiff(instanceSpec, { label: "web" }, { label: "web" }, ["label"], [])).toEqual([{ path: "label", change: "update", replace: false }]);
});

test("values compare as the API compares them: a device's disk id as a number or as its digits is one disk (issue 44's false change)", () => {
  // A profile left as it is while its boot disk is replaced: the new devices hold an unknown (sda), so the check
  // leaves them as the program gave them, the id of sdb's disk a string; the state holds it as the API's number.
  const olds = { computeId: 1, devices: { sda: { diskId: 3, volumeId: null }, sdb: { diskId: 4, volumeId: null } } };
  const news = { computeId: "1", devices: { sda: { diskId: UNKNOWN }, sdb: { diskId: "4" } } };
  expect(detailedDiff(configSpec, olds, news, ["devices"], [])).toEqual([{ path: "devices.sda.diskId", change: "update", replace: false }]);
  expect(changedPaths("devices", { sdb: { diskId: 4 } }, { sdb: { diskId: "4" } })).toEqual([]);
  // A number and other text, or a fraction, still differ.
  expect(changedPaths("devices", { sdb: { diskId: 4 } }, { sdb: { diskId: "5" } })).toEqual([["devices.sdb.diskId", "update"]]);
  expect(changedPaths("size", 4, "4.0")).toEqual([["size", "update"]]);
});
