import ArgumentParser

/// `--json`: machine-readable output instead of text.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}
