"""A Python program on the generated Python SDK (pulumi_compute), run through Pulumi's Automation API as an
inline program: the CLI runs it with no Python language host (pulumi.automation serves the program to the
engine itself), and the engine downloads the compute plugin from the release the SDK names. The end-to-end
test tests/e2e/plugin-python.e2e.test.ts drives it, one request a line on stdin, one answer a line on stdout:

    {"op": "up" | "preview" | "refresh" | "destroy" | "version", "stack": "dev", "program": "main" | "examples",
     "config": {...}, "secrets": {...}, "examples": [{"prefix": "...", "code": "..."}]}
    -> {"ok": true, "summary": {...}, "steps": ["create key (compute:index:SshKey)", ...], "outputs": {...}}

Settings from the environment: PULUMI_BACKEND_URL and PULUMI_CONFIG_PASSPHRASE (the CLI's own), and the
CLI on PATH. The "main" program reads its stack's config: apiUrl and the secret apiToken (an explicit
provider), keyLabel, publicKey, region (the pinned VPC's: changing it replaces the VPC), prefix (of the
pinned labels), importId with importLabel (an SSH key made by hand, imported). The "examples" program runs
the given examples (the Python blocks of schema.json's descriptions and docs/), each resource and output
renamed `<prefix>-<name>` (components too) so that the names of different examples do not meet.
"""

import json
import sys
import traceback
from importlib import metadata

import pulumi
import pulumi_compute as compute
from pulumi import automation as auto

PROJECT = "python-program"


def main_program() -> None:
    cfg = pulumi.Config()
    emu = compute.Provider("emu", api_url=cfg.require("apiUrl"), token=cfg.require_secret("apiToken"))
    opts = pulumi.ResourceOptions(provider=emu)
    prefix = cfg.require("prefix")
    key = compute.SshKey("key", label=cfg.require("keyLabel"), ssh_key=cfg.require("publicKey"), opts=opts)
    net = compute.Vpc("net", label=f"{prefix}-net", region=cfg.require("region"), description="made from Python", opts=opts)
    backend = compute.Subnet("backend", vpc_id=net.id, label="backend", ipv4="10.0.1.0/24", opts=opts)
    token = compute.Token("ci", label=f"{prefix}-ci", scopes="vpc:read_only", opts=opts)
    import_id = cfg.get("importId")
    if import_id:
        imported = compute.SshKey(
            "imported",
            label=cfg.require("importLabel"),
            ssh_key=cfg.require("publicKey"),
            opts=pulumi.ResourceOptions(provider=emu, import_=import_id),
        )
        pulumi.export("importedId", imported.id)
    pulumi.export("keyId", key.id)
    pulumi.export("keyLabel", key.label)
    pulumi.export("vpcId", net.id)
    pulumi.export("vpcRegion", net.region)
    pulumi.export("subnetId", backend.id)
    pulumi.export("tokenValue", token.token)


def examples_program(examples: list) -> "auto.PulumiFn":
    def program() -> None:
        init = pulumi.CustomResource.__init__
        component_init = pulumi.ComponentResource.__init__
        export = pulumi.export
        try:
            for ex in examples:
                prefix = ex["prefix"]

                def renamed(self, t, name, *args, _prefix=prefix, **kwargs):
                    return init(self, t, f"{_prefix}-{name}", *args, **kwargs)

                # The components too (ServerInVpc...: remote components, whose children take their names).
                def component_renamed(self, t, name, *args, _prefix=prefix, **kwargs):
                    return component_init(self, t, f"{_prefix}-{name}", *args, **kwargs)

                pulumi.CustomResource.__init__ = renamed
                pulumi.ComponentResource.__init__ = component_renamed
                pulumi.export = lambda name, value, _prefix=prefix: export(f"{_prefix}-{name}", value)
                exec(compile(ex["code"], f"<example {prefix}>", "exec"), {"__name__": "__main__"})
        finally:
            pulumi.CustomResource.__init__ = init
            pulumi.ComponentResource.__init__ = component_init
            pulumi.export = export

    return program


stacks: dict = {}


def stack_for(req: dict) -> "auto.Stack":
    program = examples_program(req.get("examples", [])) if req.get("program") == "examples" else main_program
    name = req["stack"]
    if name not in stacks:
        stacks[name] = auto.create_or_select_stack(stack_name=name, project_name=PROJECT, program=program)
    stack = stacks[name]
    stack.workspace.program = program
    settings = {k: auto.ConfigValue(value=str(v)) for k, v in req.get("config", {}).items()}
    settings.update({k: auto.ConfigValue(value=str(v), secret=True) for k, v in req.get("secrets", {}).items()})
    for k in req.get("unset", []):
        stack.remove_config(k)
    if settings:
        stack.set_all_config(settings)
    return stack


def step_name(op: str, urn: str) -> str:
    parts = urn.split("::")
    return f"{op} {'::'.join(parts[3:])} ({parts[2].split('$')[-1]})"


def handle(req: dict) -> dict:
    op = req["op"]
    if op == "version":
        return {"pulumi": metadata.version("pulumi"), "sdk": metadata.version("pulumi_compute")}
    stack = stack_for(req)
    steps: list = []
    log: list = []

    def on_event(e) -> None:
        pre = getattr(e, "resource_pre_event", None)
        if pre is not None:
            steps.append(step_name(pre.metadata.op.value, pre.metadata.urn))

    common = {"on_event": on_event, "on_output": log.append}
    try:
        if op == "up":
            r = stack.up(**common)
            outputs = {k: {"value": v.value, "secret": v.secret} for k, v in r.outputs.items()}
            return {"summary": dict(r.summary.resource_changes or {}), "steps": sorted(steps), "outputs": outputs}
        if op == "preview":
            r = stack.preview(**common)
            return {"summary": {k.value if hasattr(k, "value") else k: v for k, v in r.change_summary.items()}, "steps": sorted(steps)}
        if op == "refresh":
            r = stack.refresh(**common)
            return {"summary": dict(r.summary.resource_changes or {}), "steps": sorted(steps)}
        if op == "destroy":
            r = stack.destroy(**common)
            return {"summary": dict(r.summary.resource_changes or {}), "steps": sorted(steps)}
    except auto.CommandError as err:
        raise RuntimeError(f"{op} failed: {err}\n{''.join(log)[-6000:]}") from err
    raise ValueError(f"unknown operation {op!r}: up, preview, refresh, destroy, version")


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = {"ok": True, **handle(json.loads(line))}
        except Exception:  # the test reads the error from the answer
            answer = {"ok": False, "error": traceback.format_exc()[-12000:]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
