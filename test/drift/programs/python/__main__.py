"""The treasury every program of test/drift/programs declares, with the portfolio-wallet Python SDK."""
import pulumi
import pulumi_portfolio_wallet as portfolio_wallet

config = pulumi.Config()

treasury = portfolio_wallet.PortfolioWallet(
    "treasury",
    label="treasury",
    positions=[
        portfolio_wallet.PositionInputArgs(position_key="tbills", target_weight_bps=config.require_int("tbillsBps")),
        portfolio_wallet.PositionInputArgs(
            position_key="syrupUsdc", target_weight_bps=config.require_int("syrupUsdcBps")
        ),
    ],
)

events = portfolio_wallet.WebhookRegistration(
    "events",
    # Loopback only: the sandbox delivers events to this URL, and tests send nothing off the machine.
    url="http://127.0.0.1:9/treasury",
    event_types=["portfolio_wallet.strategy.status_changed"],
    enabled=True,
)

pulumi.export("walletId", treasury.wallet_id)
pulumi.export("registrationId", events.registration_id)
pulumi.export("strategyChangeStatus", treasury.strategy_change_status)
