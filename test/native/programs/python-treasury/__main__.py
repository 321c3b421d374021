"""A treasury's wallet and its webhook, with the portfolio-wallet Python SDK."""
import json

import pulumi
import pulumi_portfolio_wallet as portfolio_wallet

config = pulumi.Config()

treasury = portfolio_wallet.PortfolioWallet(
    "treasury",
    positions=[
        portfolio_wallet.PositionInputArgs(
            position_key=position["positionKey"],
            target_weight_bps=position["targetWeightBps"],
        )
        for position in json.loads(config.require("positions"))
    ],
    label=config.get("label"),
    on_delete=config.get("onDelete"),
)

events = portfolio_wallet.WebhookRegistration(
    "treasury-events",
    url="https://hooks.example.com/portfolio",
    event_types=["portfolio_wallet.strategy.status_changed"],
)

imported_wallet_id = config.get("importedWalletId")
if imported_wallet_id:
    # The code `pulumi import` prints for the wallet (see docs/languages.md).
    portfolio_wallet.PortfolioWallet(
        "legacy",
        label="legacy",
        positions=[
            portfolio_wallet.PositionInputArgs(position_key="resolvRlp", target_weight_bps=7500),
            portfolio_wallet.PositionInputArgs(position_key="tbills", target_weight_bps=2500),
        ],
    )

quote = portfolio_wallet.get_quote(min_apy_target_bps=400)

pulumi.export("walletId", treasury.wallet_id)
pulumi.export("depositAddresses", treasury.deposit_address_by_chain)
pulumi.export("blendedRateBps", treasury.blended_rate_bps)
pulumi.export("targetWeightsBps", treasury.target_weights_bps)
pulumi.export("strategyChangeStatus", treasury.strategy_change_status)
pulumi.export("webhookSecret", events.secret)
pulumi.export("quotedOptions", len(quote.options))
