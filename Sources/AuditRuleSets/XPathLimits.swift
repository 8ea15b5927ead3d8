/// What XPath custom rules may cost one audit (docs/API.md, "Cost of XPath rules").
/// Evaluation runs on a libxml2 DOM of the snapshot, built once per audit for all XPath
/// rules: about 20 bytes of memory per byte of XML. Each expression gets at most
/// `maxOperations` of libxml2's evaluation steps — a linear path over a 100,000-element
/// screen takes a few hundred thousand; comparing every element with every other
/// (`//element[@label = preceding::element/@label]`) needs billions and is stopped.
public struct XPathLimits: Sendable {
    /// Snapshots larger than this get no XPath evaluation (the rules report incomplete).
    public var maxDocumentBytes = 4 << 20
    /// libxml2 evaluation steps per expression (its `opLimit`).
    public var maxOperations = 20_000_000
    /// Node comparisons libxml2 may make merging node sets, which `opLimit` does not
    /// count (``XPathMergeCost``): about 0.3 s. `//*/following::*` passes it up to about
    /// 840 elements; `//*/following::*[1]` and `//x[following::y]` merge nothing.
    public var maxMergeComparisons = 100_000_000

    public init() {}
}
