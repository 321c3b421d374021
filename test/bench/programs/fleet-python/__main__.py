"""Benchmark program: `bench:count` PortfolioWallets with the Python SDK, the same wallets the
TypeScript fleet's `native` kind registers, so the two differ only in the language host."""
import pulumi
import pulumi_portfolio_wallet as portfolio_wallet

config = pulumi.Config("bench")

for index in range(config.require_int("count")):
    portfolio_wallet.PortfolioWallet(
        f"wallet-{index}",
        label=f"bench python wallet {index}",
        positions=[
            portfolio_wallet.PositionInputArgs(position_key="tbills", target_weight_bps=6000),
            portfolio_wallet.PositionInputArgs(position_key="syrupUsdc", target_weight_bps=4000),
        ],
    )
