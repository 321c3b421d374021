// Stack 1 of the two-stack example: owns the wallet and publishes its id and deposit addresses.
// The allocation is managed by stack 2 (strategy-stack) through a WalletStrategy, so this stack
// creates the wallet with an initial allocation and never changes `positions` afterwards.
import { PortfolioWallet } from "@portfolio-wallet/pulumi";

const wallet = new PortfolioWallet("operating-cash", {
  label: "Operating cash",
  positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
  // Funds may arrive at any time: keep the wallet at the service if this stack is ever destroyed.
  onDelete: "retain",
});

export const walletId = wallet.walletId;
export const depositAddresses = wallet.depositAddressByChain;
