// A user's Go program: one wallet with the portfolio-wallet Go SDK, run through the Automation API
// with an inline program (no Go language host needed).
//
//	treasury-go <up|preview|destroy> <work dir>
//
// The service comes from TREASURY_SERVICE_URL and TREASURY_API_TOKEN, which the program puts in
// the stack's config (the token as a secret). Prints a JSON line: outputs, or the change summary.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	portfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func treasury(ctx *pulumi.Context) error {
	wallet, err := portfoliowallet.NewPortfolioWallet(ctx, "treasury", &portfoliowallet.PortfolioWalletArgs{
		Positions: portfoliowallet.PositionInputArray{
			portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("tbills"), TargetWeightBps: pulumi.Int(6000)},
			portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("syrupUsdc"), TargetWeightBps: pulumi.Int(4000)},
		},
	})
	if err != nil {
		return err
	}
	ctx.Export("walletId", wallet.WalletId)
	ctx.Export("depositAddresses", wallet.DepositAddressByChain)
	ctx.Export("blendedRateBps", wallet.BlendedRateBps)
	return nil
}

func main() {
	if len(os.Args) != 3 {
		fail(fmt.Errorf("usage: treasury-go <up|preview|destroy> <work dir>"))
	}
	operation, workDir := os.Args[1], os.Args[2]
	ctx := context.Background()

	cli, err := exec.LookPath("pulumi")
	check(err)
	pulumiCommand, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{
		Root:             filepath.Dir(filepath.Dir(cli)),
		SkipVersionCheck: true,
	})
	check(err)
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "treasury-go", treasury,
		auto.WorkDir(workDir), auto.Pulumi(pulumiCommand))
	check(err)
	check(stack.SetConfig(ctx, "portfolio-wallet:baseUrl", auto.ConfigValue{Value: os.Getenv("TREASURY_SERVICE_URL")}))
	check(stack.SetConfig(ctx, "portfolio-wallet:apiToken",
		auto.ConfigValue{Value: os.Getenv("TREASURY_API_TOKEN"), Secret: true}))

	result := map[string]any{}
	switch operation {
	case "up":
		up, err := stack.Up(ctx, optup.SuppressOutputs())
		check(err)
		for name, output := range up.Outputs {
			result[name] = output.Value
		}
	case "preview":
		preview, err := stack.Preview(ctx)
		check(err)
		result["changeSummary"] = preview.ChangeSummary
	case "destroy":
		_, err := stack.Destroy(ctx, optdestroy.Remove())
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
