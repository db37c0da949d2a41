"""A Python project on the generated Python SDK (pulumi_compute), run as a user runs it: `pulumi up` in this
folder, the CLI starting the Python language host (scripts/build-python-host), which runs this file with the
`python3` of the active virtual environment. The default provider takes compute:apiUrl and the secret
compute:token from the stack's config; the engine downloads the plugin from the release the SDK names.
tests/e2e/plugin-python.e2e.test.ts drives it.
"""

import pulumi
import pulumi_compute as compute

cfg = pulumi.Config()
key = compute.SshKey("key", label=cfg.require("keyLabel"), ssh_key=cfg.require("publicKey"))
net = compute.Vpc("net", region="us-east", description="made by a Python project")
backend = compute.Subnet("backend", vpc_id=net.id, label="backend", ipv4="10.0.2.0/24")
token = compute.Token("ci", label="py-project-ci", scopes="vpc:read_only")
regions = compute.get_regions_output()

pulumi.export("keyId", key.id)
pulumi.export("keyLabel", key.label)
pulumi.export("vpcLabel", net.label)
pulumi.export("subnetId", backend.id)
pulumi.export("tokenValue", token.token)
pulumi.export("regionCount", regions.apply(lambda r: len(r.regions)))
