// Pulumi provider for the Portfolio Wallet Yield Service, with a local sandbox of the service
package portfoliowallet
