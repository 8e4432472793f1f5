extension FieldReader {
    /// A portal feed's `receipts`: `{"endpoint": URL, "purpose": TEXT}`, both required.
    mutating func feedReceipts(_ key: String) -> FeedReceipts? {
        guard let (dictionary, node) = self.dictionary(key) else { return nil }
        var reader = FieldReader(dictionary, at: place.member(key), line: node.line ?? line, mapping: mapping)
        let endpointText = reader.nonEmptyString("endpoint")
        let purpose = reader.nonEmptyString("purpose")
        for member in ["endpoint", "purpose"] where reader.node(member) == nil { reader.missing(member) }
        reader.reportUnknownKeys()
        let endpoint = endpointText.flatMap(ReceiptSettings.endpoint(parsing:))
        if let endpointText, endpoint == nil {
            mapping.error(
                .invalidValue, "`endpoint` must be an http(s):// URL, not \"\(endpointText)\"",
                at: reader.location(of: "endpoint"))
        }
        if let purpose, purpose.count > FeedReceipts.longestPurpose {
            mapping.error(
                .invalidValue, "`purpose` has at most \(FeedReceipts.longestPurpose) characters, not \(purpose.count)",
                at: reader.location(of: "purpose"))
            return nil
        }
        guard let endpoint, let purpose else { return nil }
        return FeedReceipts(endpoint: endpoint, purpose: purpose)
    }
}
