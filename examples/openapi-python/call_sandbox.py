"""docs/openapi.md's worked example: a Python client generated from the sandbox's OpenAPI document
(openapi-python-client), calling the sandbox. test/openapi/pythonClient.engine.test.ts runs it.

Usage: python call_sandbox.py <base url> <api token>
"""

import sys
import uuid

from portfolio_wallet_client import AuthenticatedClient
from portfolio_wallet_client.api.portfolio_wallets import (
    create_portfolio_wallet,
    get_portfolio_wallet,
    list_strategies,
    quote_portfolio_wallet,
)
from portfolio_wallet_client.models import (
    CreateWalletRequest,
    ErrorBody,
    PortfolioWallet,
    QuoteRequest,
)

base_url, token = sys.argv[1], sys.argv[2]
client = AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True)

with client as client:
    strategies = list_strategies.sync(client=client)
    keys = [entry.position_key for entry in strategies.strategies]
    print("yield sources:", ", ".join(keys))

    options = quote_portfolio_wallet.sync(client=client, body=QuoteRequest.from_dict({"minApyTargetBps": 500}))
    best = options[0]
    print("best option:", best.blended_rate_bps, "bps, constraints satisfied:", best.constraints_satisfied)

    # Create a wallet from the quote's positions, as they are.
    positions = [position.to_dict() for position in best.strategy_config.positions]
    body = CreateWalletRequest.from_dict({"requestId": str(uuid.uuid4()), "positions": positions, "label": "from Python"})
    created = create_portfolio_wallet.sync_detailed(client=client, body=body)
    assert created.status_code == 201, created.status_code
    wallet = created.parsed
    assert isinstance(wallet, PortfolioWallet), wallet
    print("created wallet", wallet.id, "with deposit addresses on", ", ".join(sorted(wallet.deposit_addresses.to_dict())))

    again = get_portfolio_wallet.sync(client=client, id=wallet.id)
    assert isinstance(again, PortfolioWallet) and again.id == wallet.id

    # A bad request answers the service's error body, naming the field.
    bad = CreateWalletRequest.from_dict(
        {"requestId": str(uuid.uuid4()), "positions": [{"positionKey": "tbills", "targetWeightBps": 9999}]}
    )
    refused = create_portfolio_wallet.sync_detailed(client=client, body=bad)
    assert refused.status_code == 400 and isinstance(refused.parsed, ErrorBody), refused.status_code
    print("refused:", refused.parsed.error.code, "-", refused.parsed.error.details[0].field)

print("ok")
