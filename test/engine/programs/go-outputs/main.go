// A `runtime: go` program that needs no provider: a component resource, configuration, a secret and
// stack outputs, run by the Go language host (`pulumi up` builds it with `go build`).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

type greeter struct {
	pulumi.ResourceState
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		component := &greeter{}
		if err := ctx.RegisterComponentResource("engine-check:index:Greeter", "greeter", component); err != nil {
			return err
		}
		greeting := pulumi.Sprintf("hello %s", config.Get(ctx, "who"))
		if err := ctx.RegisterResourceOutputs(component, pulumi.Map{"greeting": greeting}); err != nil {
			return err
		}
		ctx.Export("greeting", greeting)
		ctx.Export("token", config.RequireSecret(ctx, "token"))
		return nil
	})
}
