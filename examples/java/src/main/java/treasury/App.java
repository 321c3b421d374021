package treasury;

import com.portfoliowallet.portfoliowallet.PortfolioWallet;
import com.portfoliowallet.portfoliowallet.PortfolioWalletArgs;
import com.portfoliowallet.portfoliowallet.WebhookRegistration;
import com.portfoliowallet.portfoliowallet.WebhookRegistrationArgs;
import com.portfoliowallet.portfoliowallet.inputs.PositionInputArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

/** A treasury: a portfolio wallet whose allocation comes from the stack's config, and a webhook. */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        // Weights in basis points, summing to exactly 10000: `pulumi config set tbillsBps 5000` and
        // `pulumi config set syrupUsdcBps 5000`, then `pulumi preview` shows the reweight per yield source.
        var treasury = new PortfolioWallet("treasury", PortfolioWalletArgs.builder()
            .label("Example treasury")
            .positions(
                PositionInputArgs.builder().positionKey("tbills")
                    .targetWeightBps(config.getInteger("tbillsBps").orElse(6000)).build(),
                PositionInputArgs.builder().positionKey("syrupUsdc")
                    .targetWeightBps(config.getInteger("syrupUsdcBps").orElse(4000)).build())
            .build());

        var events = new WebhookRegistration("treasury-events", WebhookRegistrationArgs.builder()
            .url("https://example.com/hooks/portfolio-wallet")
            .eventTypes("portfolio_wallet.balance.updated", "portfolio_wallet.strategy.status_changed")
            .build());

        ctx.export("walletId", treasury.walletId());
        ctx.export("depositAddresses", treasury.depositAddressByChain());
        ctx.export("blendedRateBps", treasury.blendedRateBps());
        ctx.export("webhookSecret", events.secret()); // a secret output
    }
}
