import CLibXML2

/// One-time global set-up of libxml2.
package enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    package static func initialize() { _ = initialized }
}
