// A treasury: a portfolio wallet whose allocation comes from the stack's config, and a webhook.
package main

import (
	portfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		// Weights in basis points, summing to exactly 10000: `pulumi config set tbillsBps 5000` and
		// `pulumi config set syrupUsdcBps 5000`, then `pulumi preview` shows the reweight per yield source.
		treasury, err := portfoliowallet.NewPortfolioWallet(ctx, "treasury", &portfoliowallet.PortfolioWalletArgs{
			Label: pulumi.String("Example treasury"),
			Positions: portfoliowallet.PositionInputArray{
				portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("tbills"), TargetWeightBps: pulumi.Int(conf.GetInt("tbillsBps"))},
				portfoliowallet.PositionInputArgs{PositionKey: pulumi.String("syrupUsdc"), TargetWeightBps: pulumi.Int(conf.GetInt("syrupUsdcBps"))},
			},
		})
		if err != nil {
			return err
		}

		events, err := portfoliowallet.NewWebhookRegistration(ctx, "treasury-events", &portfoliowallet.WebhookRegistrationArgs{
			Url: pulumi.String("https://example.com/hooks/portfolio-wallet"),
			EventTypes: pulumi.StringArray{
				pulumi.String("portfolio_wallet.balance.updated"),
				pulumi.String("portfolio_wallet.strategy.status_changed"),
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("walletId", treasury.WalletId)
		ctx.Export("depositAddresses", treasury.DepositAddressByChain)
		ctx.Export("blendedRateBps", treasury.BlendedRateBps)
		ctx.Export("webhookSecret", events.Secret) // a secret output
		return nil
	})
}
