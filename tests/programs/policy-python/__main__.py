"""What a team deploys, in Python: an instance in a VPC, a MySQL cluster and a token for its CI (as
tests/programs/pipeline in TypeScript). `secure: false` breaks every rule of the policy pack
(@pulumi-compute/policy), which sees the engine's resources whatever the program's language.
"""

import pulumi
import pulumi_compute as compute

config = pulumi.Config()
secure = config.get_bool("secure")
secure = True if secure is None else secure

net = compute.Vpc("net", region="us-east")
app = compute.Subnet("app", vpc_id=net.id, ipv4="10.0.1.0/24")
web = compute.Instance(
    "web",
    region="us-east",
    type=config.get("type") or "c1-standard-2",
    image="compute/debian12",
    backups_enabled=secure,
    authorized_keys=[config.require("publicKey")] if secure else None,
    interfaces=[compute.InstanceInterfaceArgs(purpose="vpc", subnet_id=app.id, primary=True, ipv4=compute.InstanceInterfaceIpv4Args(nat11="any"))]
    if secure
    else [compute.InstanceInterfaceArgs(purpose="public", primary=True), compute.InstanceInterfaceArgs(purpose="vpc", subnet_id=app.id)],
)
db = compute.MysqlDatabase(
    "db",
    region="us-east",
    type="c1-standard-2",
    engine="mysql/8.0.35",
    allow_list=["10.0.1.0/24"] if secure else ["0.0.0.0/0"],
)
ci = compute.Token("ci", scopes="computes:read_only", expiry="2030-01-01T00:00:00") if secure else compute.Token("ci", scopes="*")

pulumi.export("webMonthly", web.monthly_price)
pulumi.export("dbMonthly", db.monthly_price)
