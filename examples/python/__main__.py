"""A treasury: a portfolio wallet whose allocation comes from the stack's config, and a webhook."""
import pulumi
import pulumi_portfolio_wallet as portfolio_wallet

config = pulumi.Config()

# Weights in basis points, summing to exactly 10000: `pulumi config set tbillsBps 5000` and
# `pulumi config set syrupUsdcBps 5000`, then `pulumi preview` shows the reweight per yield source.
treasury = portfolio_wallet.PortfolioWallet(
    "treasury",
    label="Example treasury",
    positions=[
        portfolio_wallet.PositionInputArgs(position_key="tbills", target_weight_bps=config.get_int("tbillsBps") or 6000),
        portfolio_wallet.PositionInputArgs(position_key="syrupUsdc", target_weight_bps=config.get_int("syrupUsdcBps") or 4000),
    ],
)

events = portfolio_wallet.WebhookRegistration(
    "treasury-events",
    url="https://example.com/hooks/portfolio-wallet",
    event_types=["portfolio_wallet.balance.updated", "portfolio_wallet.strategy.status_changed"],
)

pulumi.export("walletId", treasury.wallet_id)
pulumi.export("depositAddresses", treasury.deposit_address_by_chain)
pulumi.export("blendedRateBps", treasury.blended_rate_bps)
pulumi.export("webhookSecret", events.secret)  # a secret output
