// A treasury's wallet and its webhook, with the portfolio-wallet Go SDK.
package main

import (
	"encoding/json"

	portfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

type position struct {
	PositionKey     string `json:"positionKey"`
	TargetWeightBps int    `json:"targetWeightBps"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		var positions []position
		if err := json.Unmarshal([]byte(conf.Require("positions")), &positions); err != nil {
			return err
		}
		positionInputs := portfoliowallet.PositionInputArray{}
		for _, p := range positions {
			positionInputs = append(positionInputs, portfoliowallet.PositionInputArgs{
				PositionKey:     pulumi.String(p.PositionKey),
				TargetWeightBps: pulumi.Int(p.TargetWeightBps),
			})
		}
		args := &portfoliowallet.PortfolioWalletArgs{Positions: positionInputs}
		if label, err := conf.Try("label"); err == nil {
			args.Label = pulumi.StringPtr(label)
		}
		if onDelete, err := conf.Try("onDelete"); err == nil {
			args.OnDelete = pulumi.StringPtr(onDelete)
		}
		treasury, err := portfoliowallet.NewPortfolioWallet(ctx, "treasury", args)
		if err != nil {
			return err
		}

		events, err := portfoliowallet.NewWebhookRegistration(ctx, "treasury-events", &portfoliowallet.WebhookRegistrationArgs{
			Url:        pulumi.String("https://hooks.example.com/portfolio"),
			EventTypes: pulumi.StringArray{pulumi.String("portfolio_wallet.strategy.status_changed")},
		})
		if err != nil {
			return err
		}

		if _, err := conf.Try("importedWalletId"); err == nil {
			// The code for the wallet `pulumi import` adopted (see docs/languages.md).
			_, err := portfoliowallet.NewPortfolioWallet(ctx, "legacy", &portfoliowallet.PortfolioWalletArgs{
				Label: pulumi.String("legacy"),
				Positions: portfoliowallet.PositionInputArray{
					portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("resolvRlp"), TargetWeightBps: pulumi.Int(7500)},
					portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("tbills"), TargetWeightBps: pulumi.Int(2500)},
				},
			})
			if err != nil {
				return err
			}
		}

		quote, err := portfoliowallet.GetQuote(ctx, &portfoliowallet.GetQuoteArgs{MinApyTargetBps: pulumi.IntRef(400)})
		if err != nil {
			return err
		}

		ctx.Export("walletId", treasury.WalletId)
		ctx.Export("depositAddresses", treasury.DepositAddressByChain)
		ctx.Export("blendedRateBps", treasury.BlendedRateBps)
		ctx.Export("targetWeightsBps", treasury.TargetWeightsBps)
		ctx.Export("strategyChangeStatus", treasury.StrategyChangeStatus)
		ctx.Export("webhookSecret", events.Secret)
		ctx.Export("quotedOptions", pulumi.Int(len(quote.Options)))
		return nil
	})
}
