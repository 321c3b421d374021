package treasury;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.portfoliowallet.portfoliowallet.PortfolioWallet;
import com.portfoliowallet.portfoliowallet.PortfolioWalletArgs;
import com.portfoliowallet.portfoliowallet.PortfoliowalletFunctions;
import com.portfoliowallet.portfoliowallet.WebhookRegistration;
import com.portfoliowallet.portfoliowallet.WebhookRegistrationArgs;
import com.portfoliowallet.portfoliowallet.inputs.GetQuoteArgs;
import com.portfoliowallet.portfoliowallet.inputs.PositionInputArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.ArrayList;
import java.util.List;

/** A treasury's wallet and its webhook, with the portfolio-wallet Java SDK. */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        List<PositionInputArgs> positions = new ArrayList<>();
        for (JsonElement position : JsonParser.parseString(config.require("positions")).getAsJsonArray()) {
            var entry = position.getAsJsonObject();
            positions.add(PositionInputArgs.builder()
                .positionKey(entry.get("positionKey").getAsString())
                .targetWeightBps(entry.get("targetWeightBps").getAsInt())
                .build());
        }
        var walletArgs = PortfolioWalletArgs.builder().positions(positions);
        config.get("label").ifPresent(walletArgs::label);
        config.get("onDelete").ifPresent(walletArgs::onDelete);
        var treasury = new PortfolioWallet("treasury", walletArgs.build());

        var events = new WebhookRegistration("treasury-events", WebhookRegistrationArgs.builder()
            .url("https://hooks.example.com/portfolio")
            .eventTypes("portfolio_wallet.strategy.status_changed")
            .build());

        if (config.get("importedWalletId").isPresent()) {
            // The code for the wallet `pulumi import` adopted (see docs/languages.md).
            new PortfolioWallet("legacy", PortfolioWalletArgs.builder()
                .label("legacy")
                .positions(
                    PositionInputArgs.builder().positionKey("resolvRlp").targetWeightBps(7500).build(),
                    PositionInputArgs.builder().positionKey("tbills").targetWeightBps(2500).build())
                .build());
        }

        var quote = PortfoliowalletFunctions.getQuote(GetQuoteArgs.builder().minApyTargetBps(400).build());

        ctx.export("walletId", treasury.walletId());
        ctx.export("depositAddresses", treasury.depositAddressByChain());
        ctx.export("blendedRateBps", treasury.blendedRateBps());
        ctx.export("targetWeightsBps", treasury.targetWeightsBps());
        ctx.export("strategyChangeStatus", treasury.strategyChangeStatus());
        ctx.export("webhookSecret", events.secret());
        ctx.export("quotedOptions", quote.applyValue(result -> result.options().size()));
    }
}
