// A Go program that needs no provider, run through the Go Automation API with an inline program (no
// Go language host needed): a component resource, configuration, a secret and stack outputs.
//
//	go-inline <up|preview|destroy> <engine root> <work dir>
//
// The engine root is the directory above the offline engine's bin/ (scripts/pulumiEnv.ts's
// pulumiCommand uses the same). The token comes from GO_INLINE_TOKEN and goes into the stack's config
// as a secret. Prints one JSON line: the outputs with their secretness, the change summary, or {}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

type greeter struct {
	pulumi.ResourceState
}

func program(ctx *pulumi.Context) error {
	component := &greeter{}
	if err := ctx.RegisterComponentResource("engine-check:index:Greeter", "greeter", component); err != nil {
		return err
	}
	greeting := pulumi.Sprintf("hello %s", "world")
	if err := ctx.RegisterResourceOutputs(component, pulumi.Map{"greeting": greeting}); err != nil {
		return err
	}
	ctx.Export("greeting", greeting)
	ctx.Export("token", config.RequireSecret(ctx, "token"))
	return nil
}

type output struct {
	Value  any  `json:"value"`
	Secret bool `json:"secret"`
}

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: go-inline <up|preview|destroy> <engine root> <work dir>"))
	}
	operation, engineRoot, workDir := os.Args[1], os.Args[2], os.Args[3]
	ctx := context.Background()

	pulumiCommand, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: engineRoot, SkipVersionCheck: true})
	check(err)
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "go-inline", program,
		auto.WorkDir(workDir), auto.Pulumi(pulumiCommand))
	check(err)
	check(stack.SetConfig(ctx, "token", auto.ConfigValue{Value: os.Getenv("GO_INLINE_TOKEN"), Secret: true}))

	var result any = map[string]any{}
	switch operation {
	case "up":
		up, err := stack.Up(ctx, optup.SuppressProgress())
		check(err)
		outputs := map[string]output{}
		for name, value := range up.Outputs {
			outputs[name] = output{Value: value.Value, Secret: value.Secret}
		}
		result = outputs
	case "preview":
		preview, err := stack.Preview(ctx, optpreview.SuppressProgress())
		check(err)
		result = preview.ChangeSummary
	case "destroy":
		_, err := stack.Destroy(ctx, optdestroy.SuppressProgress())
		check(err)
	default:
		fail(fmt.Errorf("unknown operation %q", operation))
	}
	text, err := json.Marshal(result)
	check(err)
	fmt.Println(string(text))
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
