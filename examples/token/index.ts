import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

// Settings: compute:apiUrl and compute:token (secret), or COMPUTE_API_URL / COMPUTE_TOKEN.
const config = new pulumi.Config();

// A token for a monitoring agent: it reads instances and databases, changes nothing, and stops working on a
// date. Its value is a secret output, kept from the create answer (the API never shows it again).
const agent = new compute.Token("monitoring-agent", {
  label: config.get("label"), // left out: monitoring-agent-<suffix>
  scopes: config.get("scopes") ?? "computes:read_only databases:read_only",
  expiry: config.get("expiry") ?? "2099-12-31T00:00:00Z",
});

export const agentTokenId = agent.id;
export const agentTokenLabel = agent.label;
// Hand it to the agent's deployment (a secret store, a Kubernetes secret...): it stays encrypted in the state.
export const agentToken = agent.token;
