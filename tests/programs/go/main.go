// A Go program on the generated Go SDK (sdk/go, committed: the go.mod replaces the module with it), run
// through Pulumi's Automation API as an inline program: the CLI runs it with no Go language host, and the engine finds the compute plugin where
// `pulumi plugin install` put it. The end-to-end test tests/e2e/plugin-go.e2e.test.ts drives it:
//
//	go-program <up|preview|refresh|destroy>
//
// Settings from the environment: STACK (the stack's name), PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE,
// API_URL and API_TOKEN (set as compute:apiUrl and the secret compute:token), PUBLIC_KEY, KEY_LABEL.
// It prints one line of JSON: the step's resource changes and the stack's outputs (each with its value and
// whether it is secret).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-compute/pulumi-compute/sdk/go/compute"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// program: an SSH key (its label from the config: changed in place), a VPC with a subnet, and an API
// token whose value is a secret output.
func program(ctx *pulumi.Context) error {
	conf := config.New(ctx, "")
	key, err := compute.NewSshKey(ctx, "key", &compute.SshKeyArgs{
		Label:  pulumi.String(conf.Get("keyLabel")),
		SshKey: pulumi.String(conf.Require("publicKey")),
	})
	if err != nil {
		return err
	}
	net, err := compute.NewVpc(ctx, "net", &compute.VpcArgs{Region: pulumi.String("us-east"), Description: pulumi.String("made from Go")})
	if err != nil {
		return err
	}
	subnet, err := compute.NewSubnet(ctx, "backend", &compute.SubnetArgs{VpcId: net.ID(), Label: pulumi.String("backend"), Ipv4: pulumi.String("10.0.1.0/24")})
	if err != nil {
		return err
	}
	token, err := compute.NewToken(ctx, "ci", &compute.TokenArgs{Label: pulumi.String("ci-from-go"), Scopes: pulumi.String("vpc:read_only")})
	if err != nil {
		return err
	}
	ctx.Export("keyId", key.ID())
	ctx.Export("keyLabel", key.Label)
	ctx.Export("vpcLabel", net.Label)
	ctx.Export("subnetId", subnet.ID())
	ctx.Export("tokenId", token.ID())
	ctx.Export("tokenValue", token.Token)
	return nil
}

type output struct {
	Value  interface{} `json:"value"`
	Secret bool        `json:"secret"`
}

type result struct {
	Summary map[string]int    `json:"summary"`
	Outputs map[string]output `json:"outputs,omitempty"`
}

func outputsOf(m auto.OutputMap) map[string]output {
	out := map[string]output{}
	for k, v := range m {
		out[k] = output{Value: v.Value, Secret: v.Secret}
	}
	return out
}

func run(op string) (*result, error) {
	ctx := context.Background()
	stack, err := auto.UpsertStackInlineSource(ctx, os.Getenv("STACK"), "go-program", program)
	if err != nil {
		return nil, fmt.Errorf("stack: %w", err)
	}
	settings := auto.ConfigMap{
		"compute:apiUrl": auto.ConfigValue{Value: os.Getenv("API_URL")},
		"compute:token":  auto.ConfigValue{Value: os.Getenv("API_TOKEN"), Secret: true},
		"publicKey":      auto.ConfigValue{Value: os.Getenv("PUBLIC_KEY")},
		"keyLabel":       auto.ConfigValue{Value: os.Getenv("KEY_LABEL")},
	}
	if err := stack.SetAllConfig(ctx, settings); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	// A naming policy for the whole program (pulumi:autonaming), as `pulumi config set --path` writes it.
	if pattern := os.Getenv("NAMING_PATTERN"); pattern != "" {
		if err := stack.SetConfigWithOptions(ctx, "pulumi:autonaming.pattern", auto.ConfigValue{Value: pattern}, &auto.ConfigOptions{Path: true}); err != nil {
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	switch op {
	case "up":
		r, err := stack.Up(ctx, optup.SuppressProgress())
		if err != nil {
			return nil, err
		}
		return &result{Summary: changes(r.Summary.ResourceChanges), Outputs: outputsOf(r.Outputs)}, nil
	case "preview":
		r, err := stack.Preview(ctx, optpreview.SuppressProgress())
		if err != nil {
			return nil, err
		}
		summary := map[string]int{}
		for k, v := range r.ChangeSummary {
			summary[string(k)] = v
		}
		return &result{Summary: summary}, nil
	case "refresh":
		r, err := stack.Refresh(ctx, optrefresh.SuppressProgress())
		if err != nil {
			return nil, err
		}
		return &result{Summary: changes(r.Summary.ResourceChanges)}, nil
	case "destroy":
		r, err := stack.Destroy(ctx, optdestroy.SuppressProgress())
		if err != nil {
			return nil, err
		}
		return &result{Summary: changes(r.Summary.ResourceChanges)}, nil
	}
	return nil, fmt.Errorf("unknown operation %q: up, preview, refresh or destroy", op)
}

func changes(m *map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return *m
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-program <up|preview|refresh|destroy>")
		os.Exit(2)
	}
	r, err := run(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-program %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
