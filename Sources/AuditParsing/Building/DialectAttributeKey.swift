/// The attributes one dialect reads: an enum of its own (`NativeDialect.Key`,
/// `UiautomatorDialect.Key`…), so a new dialect adds its names without touching the
/// others. Each dialect maps its names onto its keys (``SnapshotDialect/attributeKey(named:)``)
/// once per document (names are interned by libxml2: ``AttributeKeyCache`` keeps the raw
/// value by name pointer); its decoder then reads values by key.
protocol DialectAttributeKey: RawRepresentable, Equatable where RawValue == UInt8 {
    /// An attribute the dialect does not read.
    static var unknown: Self { get }
}
