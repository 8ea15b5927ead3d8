/// A convenient view of one element: its typed values plus its strings, decoded on demand.
public struct Node: Sendable {
    public let snapshot: Snapshot
    public let index: Int

    public var element: Element { snapshot.elements[index] }
    public var role: Role { element.role }
    public var id: String? { snapshot.text(element.id) }
    public var label: String? { snapshot.text(element.label) }
    public var value: String? { snapshot.text(element.value) }
    public var hint: String? { snapshot.text(element.hint) }
    public var text: String? { snapshot.text(element.text) }
    public var placeholder: String? { snapshot.text(element.placeholder) }
    public var image: String? { snapshot.text(element.image) }
    public var typeName: String? { snapshot.text(element.typeName) }
    public var path: String { snapshot.path(of: index) }

    /// What a screen reader announces as the name: the label, else the visible text.
    public var accessibleName: String? { snapshot.text(snapshot.accessibleNameRef(of: index)) }

    /// The text drawn on screen: `text`, else a text element's value or label.
    public var visibleText: String? { snapshot.text(snapshot.visibleTextRef(of: index)) }
}
