"""A component resource (needs no provider plugin), configuration, a secret and stack outputs."""

import importlib.metadata

import pulumi


class Greeter(pulumi.ComponentResource):
    """A component: registered by the language host, created and deleted by the engine alone."""

    def __init__(self, name: str, who: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("engine-check:index:Greeter", name, None, opts)
        self.greeting = pulumi.Output.from_input(who).apply(lambda who: f"hello {who}")
        self.register_outputs({"greeting": self.greeting})


config = pulumi.Config()
greeter = Greeter("greeter", config.get("who") or "world")
pulumi.export("greeting", greeter.greeting)
# Which `pulumi` package ran the program: the one pinned in scripts/python/pulumi-sdk.txt.
pulumi.export("pulumiSdkVersion", importlib.metadata.version("pulumi"))
pulumi.export("token", config.require_secret("token"))
