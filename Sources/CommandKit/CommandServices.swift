/// What a tool's commands run on beyond the process's streams, files and
/// environment (an engine, a signal router…), one value per type. The
/// executable puts the real ones in its ``CommandContext``; a test puts
/// doubles there, and runs the commands in process against them.
/// CommandKit itself reads none.
public struct CommandServices: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No services.
    public init() {}

    /// The service of type `Service`, or `nil` when none was put there.
    public subscript<Service: Sendable>(_ type: Service.Type) -> Service? {
        get { values[ObjectIdentifier(type)] as? Service }
        set { values[ObjectIdentifier(type)] = newValue }
    }
}
