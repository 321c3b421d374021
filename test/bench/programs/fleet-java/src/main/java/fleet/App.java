package fleet;

import com.portfoliowallet.portfoliowallet.PortfolioWallet;
import com.portfoliowallet.portfoliowallet.PortfolioWalletArgs;
import com.portfoliowallet.portfoliowallet.inputs.PositionInputArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

/**
 * Benchmark program: `bench:count` PortfolioWallets with the Java SDK, the same wallets the
 * TypeScript fleet's `native` kind registers, so the two differ only in the language host.
 */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        int count = Integer.parseInt(ctx.config("bench").require("count"));
        for (int index = 0; index < count; index++) {
            new PortfolioWallet("wallet-" + index, PortfolioWalletArgs.builder()
                .label("bench java wallet " + index)
                .positions(
                    PositionInputArgs.builder().positionKey("tbills").targetWeightBps(6000).build(),
                    PositionInputArgs.builder().positionKey("syrupUsdc").targetWeightBps(4000).build())
                .build());
        }
    }
}
