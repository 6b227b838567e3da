/// The type of an attribute, with Core Data's numeric codes as raw values.
///
/// The codes are the ones Core Data uses in `NSAttributeType` and in version hashes.
public enum AttributeType: Int, Sendable, Hashable, CaseIterable {
    /// No type. Legal only on transient attributes.
    case undefined = 0
    /// A 16-bit signed integer, held as ``Value/integer(_:)``.
    case integer16 = 100
    /// A 32-bit signed integer, held as ``Value/integer(_:)``.
    case integer32 = 200
    /// A 64-bit signed integer, held as ``Value/integer(_:)``.
    case integer64 = 300
    /// A decimal number, held as ``Value/decimal(_:)``.
    case decimal = 400
    /// A 64-bit floating-point number, held as ``Value/double(_:)``.
    case double = 500
    /// A 32-bit floating-point number, held as ``Value/double(_:)``.
    case float = 600
    /// Text, held as ``Value/string(_:)``.
    case string = 700
    /// True or false, held as ``Value/boolean(_:)``.
    case boolean = 800
    /// A point in time, held as ``Value/date(_:)``.
    case date = 900
    /// Bytes, held as ``Value/binary(_:)``.
    case binary = 1000
    /// A UUID, held as ``Value/uuid(_:)``.
    case uuid = 1100
    /// A URI, held as its text in ``Value/string(_:)``.
    case uri = 1200
    /// A value an app transforms to bytes itself; held as ``Value/binary(_:)``.
    case transformable = 1800
    /// A reference to an object by its URI, held as text in ``Value/string(_:)``.
    case objectID = 2000

    /// The spelling Xcode writes in a model file's `attributeType`.
    public var modelName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "Object ID"
        }
    }

    /// Parses the `attributeType` spelling of a model file (`"Integer 64"`, `"Binary"`, ...).
    ///
    /// `"Binary Data"` is accepted as an alias of `"Binary"`.
    public init?(modelName: String) {
        if modelName == "Binary Data" {
            self = .binary
            return
        }
        guard let match = AttributeType.allCases.first(where: { $0.modelName == modelName }) else { return nil }
        self = match
    }

    /// The spelling Core Data's XML store writes in `<attribute type=...>`.
    public var xmlStoreName: String {
        switch self {
        case .undefined: "undefined"
        case .integer16: "int16"
        case .integer32: "int32"
        case .integer64: "int64"
        case .decimal: "decimal"
        case .double: "double"
        case .float: "float"
        case .string: "string"
        case .boolean: "bool"
        case .date: "date"
        case .binary: "binary"
        case .uuid: "uuid"
        case .uri: "uri"
        case .transformable: "transformable"
        case .objectID: "objectid"
        }
    }

    /// Parses the `type` spelling of an XML store's `<attribute>` element.
    public init?(xmlStoreName: String) {
        guard let match = AttributeType.allCases.first(where: { $0.xmlStoreName == xmlStoreName }) else { return nil }
        self = match
    }

    /// Whether values are integers (Integer 16, 32 or 64).
    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values are numbers of any kind (integers, Decimal, Double, Float).
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The range of values an integer type can hold, or `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min) ... Int64(Int16.max)
        case .integer32: Int64(Int32.min) ... Int64(Int32.max)
        case .integer64: Int64.min ... Int64.max
        default: nil
        }
    }
}
