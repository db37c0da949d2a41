/**
 * A priced instance and a MySQL cluster on the dynamic classes (`pulumi-compute`), keeping every rule of the policy
 * pack but the budget: a dynamic provider plans no outputs, so at the preview of their create neither has a
 * `monthlyPrice` for the budget to count.
 */
import * as compute from "pulumi-compute";

const web = new compute.Instance("web", { region: "us-east", type: "c1-standard-2", backupsEnabled: true });
const db = new compute.MysqlDatabase("db", { region: "us-east", type: "c1-standard-2", engine: "mysql/8.0.35", allowList: ["10.0.1.0/24"] });

export const webMonthly = web.monthlyPrice;
export const dbMonthly = db.monthlyPrice;
