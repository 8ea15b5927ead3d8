/// Where a front end's start tags are, exactly: the builder asks it for the line and
/// column of the element just reported, from the bytes the front end says it had read
/// (``ParseCursor/consumed``). A front end that knows each element's position from its own
/// reading gives it in the cursor's line and column instead, and sets no locator.
protocol TagLocator: AnyObject {
    /// Whether positions come from consumed byte counts (the front end must then fill
    /// ``ParseCursor/consumed``).
    var tracksBytes: Bool { get }
    /// The line and column of the start tag read up to `consumed` bytes; nil: use the
    /// cursor's own line and column.
    func startTag(consumed: Int) -> (line: Int, column: Int)?
}
