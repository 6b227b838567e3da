import Foundation
import Testing

/// The sample document the README's run command shows.
@Suite struct SampleTests {
    static var sample: String { CLI.packageRoot.appendingPathComponent("Fixtures/Samples/groceries.outline").path }

    @Test func theSampleShowsAGroceryList() throws {
        let box = try CLISandbox()
        let result = try box.run("show", Self.sample)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout == """
                1 Dairy
                  1.1 Milk
                      Oat, not soy.
                  1.2 [x] Eggs
                2 Bakery
                  2.1 Rye bread
                3 Produce
                  3.1 Apples
                      The tart ones.
                  3.2 [x] Spinach

                """)
    }

    @Test func theSampleIsAValidCurrentBinaryDocument() throws {
        let box = try CLISandbox()
        let info = try box.run("info", Self.sample, "--json").jsonObject()
        #expect(info["format"] as? String == "binary")
        #expect(info["schemaVersion"] as? String == "Outline 3")
        #expect(info["migrationNeeded"] as? Bool == false)
        let valid = try box.run("validate", Self.sample)
        #expect(valid.status == 0, "\(valid)")
    }
}
